//! Recording generations into command encoders: each band's parameters, the dispatches of
//! the dense, blocked and tile kernels, their plan for a batch, and the timestamps a timed
//! step reads back.

use super::*;

impl GpuLifeEngine {
    pub(super) fn band_params(&self, k: usize, key: u32) -> Params {
        let g = &self.grid;
        let band = &g.bands[k];
        let above = &g.bands[(k + g.bands.len() - 1) % g.bands.len()];
        let last_word = (g.width - 1) / 32;
        let pack = |t: [u32; 10]| {
            let mut out = [[0u32; 4]; 3];
            for (c, v) in t.into_iter().enumerate() {
                out[c / 4][c % 4] = v;
            }
            out
        };
        let (tiles_x, band_first_tile, band_tile_rows) = match &self.tiles {
            Some(t) => (t.geo.tiles_x, t.geo.band_first[k], t.geo.band_rows[k]),
            None => (0, 0, 0),
        };
        Params {
            width: g.width,
            words: g.words,
            last_word,
            last_bits: g.width - last_word * 32,
            band_rows: band.rows,
            above_rows: above.rows,
            row_offset: band.first_row,
            row_groups: band.rows.div_ceil(self.rows),
            key,
            dead_bits: self.table.certain_bits(false),
            alive_bits: self.table.certain_bits(true),
            transposed: self.transposed as u32,
            dead_threshold: pack(self.table.thresholds(false)),
            alive_threshold: pack(self.table.thresholds(true)),
            height: g.height,
            bands: g.bands.len() as u32,
            band: k as u32,
            tiles_x,
            band_first_tile,
            band_tile_rows,
            all_tiles: 0,
            // Against the generation before the current one, unless a draw by chance can undo
            // a settled tile (see tiles.rs).
            compare_prev: !self.table.is_stochastic() as u32,
            block: 1,
            _pad0: 0,
            _pad1: 0,
            _pad2: 0,
            keys: [[0; 4]; 8],
        }
    }

    /// The parameters of band `k` for a dispatch of `pass` whose first generation computed is
    /// `first_gen + 1` (stochastic rules key each generation).
    pub(super) fn pass_params(&self, k: usize, pass: Pass, first_gen: u64) -> Params {
        let stochastic = self.table.is_stochastic();
        let key = |g: u64| {
            if stochastic {
                hash::stream_key(self.seed, g)
            } else {
                0
            }
        };
        let mut p = self.band_params(k, key(first_gen));
        match pass {
            Pass::TilesAll => p.all_tiles = 1,
            Pass::Block(j) => {
                p.block = j;
                for s in 0..j as usize {
                    p.keys[s / 4][s % 4] = key(first_gen + s as u64);
                }
            }
            _ => {}
        }
        p
    }

    /// Deterministic rules: one slot per kind of dispatch and band, written once.
    pub(super) fn write_static_params(&self) {
        let n = self.grid.bands.len();
        let mut passes = vec![Pass::TilesList, Pass::TilesAll];
        passes.extend((1..=self.block).map(Pass::Block));
        let mut data = vec![0u8; passes.len() * n * self.slot_stride as usize];
        for pass in passes {
            for k in 0..n {
                let at = (pass.variant() as usize * n + k) * self.slot_stride as usize;
                let p = self.pass_params(k, pass, 0);
                data[at..at + std::mem::size_of::<Params>()]
                    .copy_from_slice(bytemuck::bytes_of(&p));
            }
        }
        self.ctx.queue.write_buffer(&self.params, 0, &data);
    }

    /// Stochastic rules: one slot per dispatch of the plan and band, keyed by its generations.
    pub(super) fn write_plan_params(&self, plan: &Plan) {
        let n = self.grid.bands.len();
        let mut data = vec![0u8; plan.units.len() * n * self.slot_stride as usize];
        let mut first = self.core.generation;
        for (u, unit) in plan.units.iter().enumerate() {
            for k in 0..n {
                let at = (u * n + k) * self.slot_stride as usize;
                let p = self.pass_params(k, unit.pass, first);
                data[at..at + std::mem::size_of::<Params>()]
                    .copy_from_slice(bytemuck::bytes_of(&p));
            }
            first += unit.pass.gens();
        }
        self.ctx.queue.write_buffer(&self.params, 0, &data);
    }

    /// Workgroups of 64 invocations, one invocation per word and group of rows, laid out in as
    /// few dimensions as the device's per-dimension cap allows.
    pub(super) fn dispatch_size(&self, band_rows: u32) -> (u32, u32, u32) {
        let invocations = self.grid.words as u64 * band_rows.div_ceil(self.rows) as u64;
        self.split(invocations.div_ceil(64))
    }

    /// One workgroup per blocked tile: 30 words by `64 - 2k` rows.
    pub(super) fn block_dispatch_size(&self, band_rows: u32, k: u32) -> (u32, u32, u32) {
        let last_word = (self.grid.width - 1) / 32;
        let tiles_x = (last_word + 30) / 30;
        let tile_rows = band_rows.div_ceil(64 - 2 * k);
        self.split(tiles_x as u64 * tile_rows as u64)
    }

    pub(super) fn split(&self, groups: u64) -> (u32, u32, u32) {
        crate::gpu::tiles::split(
            groups,
            self.ctx.limits().max_compute_workgroups_per_dimension,
        )
    }

    /// Plans up to `gens` generations in at most `max_units` dispatches, and commits the tile
    /// bookkeeping to that plan. `every_gen`: a census follows each generation (so no
    /// generation may hide inside a blocked dispatch).
    pub(super) fn plan(&mut self, gens: u64, max_units: usize, every_gen: bool) -> Plan {
        let mut plan = Plan::default();
        // Change records are exact after this many tile-kernel generations in a row.
        let need = if self.table.is_stochastic() { 1 } else { 2 };
        let block = self.block;
        let dense_k = if every_gen { 1 } else { block as u64 };
        while plan.gens < gens && plan.units.len() < max_units {
            let left = gens - plan.gens;
            let unit = match self.tiles.as_mut() {
                Some(t) if t.mode == Mode::Sparse && t.seeded => {
                    t.seeded = false;
                    t.list_ready = true;
                    Unit {
                        pass: Pass::Seed,
                        compact: true,
                        census: None,
                        kept: false,
                    }
                }
                Some(t) if t.mode == Mode::Sparse && t.list_ready => Unit {
                    pass: Pass::TilesList,
                    compact: true,
                    census: None,
                    kept: t.census_kept,
                },
                // A sparse run starting afresh (after an edit), or a look from a dense stretch
                // every PROBE_EVERY generations: every tile, so that the list's length can be
                // read back and the run may go on the list.
                Some(t)
                    if t.mode == Mode::Sparse
                        || (t.dense_gens >= PROBE_EVERY && (left <= need || t.flag_gens > 0)) =>
                {
                    t.flag_gens += 1;
                    let compact = t.flag_gens >= need as u32;
                    if compact {
                        t.list_ready = true;
                        t.dense_gens = 0;
                    }
                    Unit {
                        pass: Pass::TilesAll,
                        compact,
                        census: None,
                        kept: t.census_kept,
                    }
                }
                Some(t) => {
                    t.invalidate();
                    let room = if t.dense_gens >= PROBE_EVERY {
                        left - need
                    } else {
                        left
                    };
                    let pass = dense_pass(dense_k.min(room), block);
                    t.dense_gens += pass.gens();
                    Unit {
                        pass,
                        compact: false,
                        census: None,
                        kept: false,
                    }
                }
                None => Unit {
                    pass: dense_pass(dense_k.min(left), block),
                    compact: false,
                    census: None,
                    kept: false,
                },
            };
            plan.gens += unit.pass.gens();
            plan.units.push(unit);
        }
        plan.read = self.tiles.as_ref().is_some_and(|t| t.list_ready);
        plan
    }

    /// Records a plan into one encoder, with timestamps around it and a census at the end if
    /// asked for. Stochastic rules: the caller wrote the plan's parameters.
    pub(super) fn encode(
        &mut self,
        plan: &Plan,
        timestamps: Option<(&wgpu::QuerySet, u32)>,
        census: Option<&GpuCensus>,
        end_census: Option<u32>,
    ) -> (wgpu::CommandBuffer, bool) {
        let mut encoder = self
            .ctx
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("life"),
            });
        let stochastic = self.table.is_stochastic();
        {
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some("generations"),
                timestamp_writes: timestamps.map(|(q, at)| wgpu::ComputePassTimestampWrites {
                    query_set: q,
                    beginning_of_pass_write_index: Some(at),
                    end_of_pass_write_index: Some(at + 1),
                }),
            });
            let n = self.grid.bands.len();
            for (u, unit) in plan.units.iter().enumerate() {
                let p = self.grid.current;
                let group = if stochastic {
                    u as u64
                } else {
                    unit.pass.variant()
                };
                let offset = |k: usize| ((group * n as u64 + k as u64) * self.slot_stride) as u32;
                match unit.pass {
                    Pass::Main | Pass::Block(_) => {
                        let pipeline = match (unit.pass, &self.blocked) {
                            (Pass::Block(_), Some(b)) => b,
                            _ => &self.pipeline,
                        };
                        pass.set_pipeline(pipeline);
                        for k in 0..n {
                            pass.set_bind_group(0, &self.bind_groups[p][k], &[offset(k)]);
                            let rows = self.grid.bands[k].rows;
                            let (x, y, z) = match unit.pass {
                                Pass::Block(j) => self.block_dispatch_size(rows, j),
                                _ => self.dispatch_size(rows),
                            };
                            pass.dispatch_workgroups(x, y, z);
                        }
                    }
                    Pass::Seed => {
                        // The compaction that follows a kernel reading buffer 1 - p writes the
                        // list and control words of parity p: the current generation's.
                        let t = self.tiles.as_ref().expect("a seed has tiles");
                        t.record_compact(&mut pass, 1 - p, true);
                        continue;
                    }
                    Pass::TilesAll | Pass::TilesList => {
                        let t = self.tiles.as_ref().expect("a tile pass has tiles");
                        let all = unit.pass == Pass::TilesAll;
                        for k in 0..n {
                            t.record_kernel(&mut pass, p, k, offset(k), all);
                        }
                        if unit.compact {
                            t.record_compact(&mut pass, p, all);
                        }
                    }
                }
                self.grid.current = 1 - p;
                if let (Some(c), Some(slot)) = (census, unit.census)
                    && !(unit.kept && c.record_kept(&mut pass, self.grid.current, slot))
                {
                    c.record(&mut pass, self.grid.current, slot);
                }
            }
            if let (Some(c), Some(slot)) = (census, end_census) {
                let kept = self.tiles.as_ref().is_some_and(|t| t.census_kept);
                if !(kept && c.record_kept(&mut pass, self.grid.current, slot)) {
                    c.record(&mut pass, self.grid.current, slot);
                }
            }
        }
        let read = plan.read
            && self
                .tiles
                .as_ref()
                .is_some_and(|t| t.copy_counts(&mut encoder, self.grid.current));
        (encoder.finish(), read)
    }

    /// Advances `gens` generations in batches, with censuses as `census` asks, and returns the
    /// device's time for them when `timed` and the device has timestamp queries.
    pub(super) fn advance(
        &mut self,
        gens: u64,
        census: Option<(&GpuCensus, CensusPlan)>,
        timed: bool,
    ) -> EngineResult<Option<f64>> {
        if gens > 0 {
            self.mirror = None;
        }
        let stochastic = self.table.is_stochastic();
        let n = self.grid.bands.len();
        let max_units = if stochastic {
            (self.slots / n as u64).max(1) as usize
        } else {
            usize::MAX
        };
        let every_gen = matches!(census, Some((_, CensusPlan::EveryGeneration { .. })));
        let timestamps = timed && self.ctx.summary.timestamp_queries;
        let queries = timestamps.then(|| {
            self.ctx.device.create_query_set(&wgpu::QuerySetDescriptor {
                label: Some("bench"),
                ty: wgpu::QueryType::Timestamp,
                count: 2 * TIMED_BATCHES,
            })
        });
        let mut seconds = 0.0;
        let mut batches = 0u32;
        let mut done = 0;
        loop {
            if let Some(t) = self.tiles.as_mut() {
                t.poll(&self.ctx, false);
            }
            let sparse = self.tiles.as_ref().is_some_and(|t| t.mode == Mode::Sparse);
            if every_gen
                && sparse
                && let Some(t) = self.tiles.as_mut()
                && !t.census_kept
            {
                // A census of every generation on the tile list: start the one the kernel
                // keeps, so that each generation costs its active tiles only.
                t.start_census(&self.ctx);
            }
            let cap = if sparse { SPARSE_BATCH } else { MAX_BATCH };
            let mut plan = self.plan((gens - done).min(cap), max_units, every_gen);
            let last = done + plan.gens >= gens;
            if let Some((_, CensusPlan::EveryGeneration { first_slot })) = census {
                // A slot per generation: a seed pass computes none, so it takes none.
                let mut at = done;
                for unit in plan.units.iter_mut().filter(|u| u.pass.gens() > 0) {
                    unit.census = Some(first_slot + at as u32);
                    at += unit.pass.gens();
                }
            }
            let end_census = match census {
                Some((_, CensusPlan::AtEnd { slot })) if last => Some(slot),
                _ => None,
            };
            if plan.units.is_empty() && end_census.is_none() {
                break;
            }
            if stochastic {
                self.write_plan_params(&plan);
            }
            let stamp = queries.as_ref().map(|q| (q, 2 * batches));
            let (commands, read) = self.encode(&plan, stamp, census.map(|c| c.0), end_census);
            self.ctx.queue.submit([commands]);
            if read && let Some(t) = self.tiles.as_mut() {
                t.start_read();
            }
            self.core.generation += plan.gens;
            done += plan.gens;
            if stochastic {
                // The next batch rewrites the parameter slots: let this one finish first.
                self.ctx.wait()?;
            }
            if let Some(q) = &queries {
                batches += 1;
                if batches == TIMED_BATCHES || last {
                    seconds += self.read_timestamps(q, batches)?;
                    batches = 0;
                }
            }
            if last {
                break;
            }
        }
        self.ctx.check_faults()?;
        Ok(queries.map(|_| seconds))
    }

    /// The device seconds of the first `batches` timestamped passes of `queries`.
    pub(super) fn read_timestamps(
        &self,
        queries: &wgpu::QuerySet,
        batches: u32,
    ) -> EngineResult<f64> {
        let bytes = 16 * batches as u64;
        let resolve = self.ctx.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("timestamps"),
            size: bytes,
            usage: wgpu::BufferUsages::QUERY_RESOLVE | wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: false,
        });
        let readback = self.ctx.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("timestamps readback"),
            size: bytes,
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let mut encoder = self
            .ctx
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("resolve"),
            });
        encoder.resolve_query_set(queries, 0..2 * batches, &resolve, 0);
        encoder.copy_buffer_to_buffer(&resolve, 0, &readback, 0, bytes);
        self.ctx.queue.submit([encoder.finish()]);
        let mut ticks = 0u64;
        crate::gpu::grid::read_mapped(&self.ctx, &readback, bytes, |d| {
            let t: &[u64] = bytemuck::cast_slice(d);
            ticks = t.chunks_exact(2).map(|p| p[1].saturating_sub(p[0])).sum();
        })?;
        let period = self.ctx.queue.get_timestamp_period() as f64;
        Ok(ticks as f64 * period * 1e-9)
    }
}
