//! The engine seam for the GPU Life engine: what every engine answers, on the device's
//! buffers.

use super::*;

impl Engine for GpuLifeEngine {
    fn core(&self) -> &Core {
        &self.core
    }

    fn core_mut(&mut self) -> &mut Core {
        &mut self.core
    }

    fn universe(&self) -> Universe {
        let (w, h) = self.size();
        Universe::torus(w, h)
    }

    fn step(&mut self, gens: u64) -> EngineResult<()> {
        self.advance(gens, None, false)?;
        Ok(())
    }

    fn piece_ms(&self) -> f64 {
        // A piece's time includes waiting in the device's one queue behind the window's
        // frames, which on a software adapter take tens of milliseconds: pieces of 15 ms
        // would shrink to a generation or two and leave the device idle between them.
        100.0
    }

    fn step_with(&mut self, gens: u64, progress: &Progress) -> EngineResult<u64> {
        // Pieces the device finishes in well under a second, waited for, so that cancelling
        // takes effect soon and the queue never holds minutes of work.
        let piece = ((1u64 << 27) / self.grid.width as u64 / self.grid.height as u64).clamp(1, 256);
        let mut done = 0;
        while done < gens && !progress.cancelled() {
            let n = piece.min(gens - done);
            self.step(n)?;
            self.ctx.wait()?;
            done += n;
            progress.advance(n);
        }
        Ok(done)
    }

    fn population(&mut self) -> EngineResult<u64> {
        match &self.mirror {
            Some(m) => Ok(m.population()),
            None => Ok(GpuLifeEngine::census(self)?.population),
        }
    }

    fn census(&mut self) -> EngineResult<crate::grid::Census> {
        if self.transposed {
            // The device's census hashes its own layout; the seam's is the torus's.
            return Ok(self.mirror()?.census());
        }
        GpuLifeEngine::census(self)
    }

    fn step_census(&mut self, gens: u64, out: &mut Vec<crate::grid::Census>) -> EngineResult<()> {
        if self.transposed {
            for _ in 0..gens {
                Engine::step(self, 1)?;
                out.push(Engine::census(self)?);
            }
            return Ok(());
        }
        self.step_device_census(gens, out)
    }

    fn step_populations(&mut self, gens: u64, out: &mut Vec<u64>) -> EngineResult<()> {
        // The device's census, read back in batches; its population is the same whichever
        // way round the torus is held.
        let mut censuses = Vec::new();
        self.step_device_census(gens, &mut censuses)?;
        out.extend(censuses.iter().map(|c| c.population));
        Ok(())
    }

    fn cell(&mut self, x: i64, y: i64) -> EngineResult<bool> {
        let m = self.mirror()?;
        let (x, y) = dense::wrap(m, x, y);
        Ok(m.get(x, y))
    }

    fn set_cell(&mut self, x: i64, y: i64, alive: bool) -> EngineResult<()> {
        let transposed = self.transposed;
        let m = self.mirror()?;
        let (x, y) = dense::wrap(m, x, y);
        if m.get(x, y) != alive {
            m.set(x, y, alive);
            let (row, word, value) = if transposed {
                // Device row x, the word holding cell y: gathered from column x.
                let k = y / 64;
                let value = (0..64)
                    .filter(|b| k * 64 + b < m.height() && m.get(x, k * 64 + b))
                    .fold(0u64, |v, b| v | 1 << b);
                (x, k as usize, value)
            } else {
                ((y), (x / 64) as usize, m.row(y)[(x / 64) as usize])
            };
            self.grid.write_word(&self.ctx, row, word, value);
            self.edited();
        }
        self.ctx.check_faults()
    }

    fn put(&mut self, cells: &Grid, at: (i64, i64), how: Put) -> EngineResult<()> {
        let whole = (cells.width(), cells.height()) == self.size() && how == Put::Replace;
        if whole && at == (0, 0) {
            self.upload(cells);
            self.mirror = Some(cells.clone());
            return self.ctx.check_faults();
        }
        if self.transposed {
            let m = self.mirror()?;
            dense::put(m, cells, at, how);
            let m = self.mirror.take().expect("made above");
            self.upload(&m);
            self.mirror = Some(m);
            return self.ctx.check_faults();
        }
        let h = self.grid.height;
        let m = self.mirror()?;
        dense::put(m, cells, at, how);
        let y0 = at.1.rem_euclid(h as i64) as u32;
        let rows = cells.height().min(h);
        let m = self.mirror.take().expect("made above");
        self.grid
            .upload_rows(&self.ctx, &m, (0..rows).map(|dy| (y0 + dy) % h));
        self.restart_tiles(&m);
        self.mirror = Some(m);
        self.ctx.check_faults()
    }

    fn clear(&mut self) -> EngineResult<()> {
        let (w, h) = self.size();
        let empty = Grid::try_new(w, h)?;
        self.put(&empty, (0, 0), Put::Replace)
    }

    fn bounds(&mut self) -> EngineResult<Option<Bounds>> {
        Ok(dense::bounds(self.mirror()?))
    }

    fn cells_in(&mut self, rect: CellRect) -> EngineResult<Grid> {
        Ok(dense::cells_in(self.mirror()?, rect))
    }

    fn sample(&mut self, rect: CellRect, block: u32) -> EngineResult<Sampled> {
        Ok(dense::sample(self.mirror()?, rect, block))
    }

    fn export(&mut self) -> EngineResult<TileMap> {
        Ok(dense::export(self.mirror()?))
    }

    fn import(&mut self, tiles: &TileMap) -> EngineResult<()> {
        let (w, h) = self.size();
        let mut g = Grid::try_new(w, h)?;
        dense::import(&mut g, tiles);
        self.put(&g, (0, 0), Put::Replace)
    }

    /// The bands' buffers as they are, unless the device holds the torus transposed (a
    /// renderer would draw it on its side).
    fn view_source(&self) -> Option<crate::engine::ViewSource> {
        if self.transposed {
            return None;
        }
        Some(crate::engine::ViewSource {
            sets: (0..2)
                .map(|p| {
                    self.grid
                        .bands
                        .iter()
                        .map(|b| b.buffers[p].clone())
                        .collect()
                })
                .collect(),
            band_rows: self.grid.bands[0].rows,
            words: self.grid.words,
        })
    }

    fn current_buffer(&self) -> Option<usize> {
        Some(self.grid.current)
    }

    fn dispatch(&self) -> Option<crate::engine::Dispatch> {
        Some(crate::engine::Dispatch {
            kernel: self.kernel.name(),
            block: self.block,
            blocked: matches!(self.kernel, LifeKernel::Tiles | LifeKernel::Blocked),
        })
    }

    /// The share of the torus's tiles that the next generation computes: the list's length
    /// over the tiles, read back now (after the work submitted so far). 1 where every tile is
    /// computed (the dense and blocked kernels, B0 rules, a dense stretch).
    fn active_fraction(&mut self) -> EngineResult<Option<f64>> {
        let current = self.grid.current;
        Ok(Some(match self.tiles.as_mut() {
            Some(t) if t.list_ready => {
                let count = t.read_now(&self.ctx, current)?;
                count as f64 / t.geo.tiles().max(1) as f64
            }
            _ => 1.0,
        }))
    }

    fn grid(&mut self) -> EngineResult<Grid> {
        Ok(self.mirror()?.clone())
    }

    fn finish(&mut self) -> EngineResult<()> {
        self.ctx.wait()?;
        self.ctx.check_faults()
    }

    fn step_timed(&mut self, gens: u64) -> EngineResult<Option<f64>> {
        self.advance(gens, None, true)
    }

    fn note(&self) -> Option<String> {
        Some(match self.kernel {
            LifeKernel::Blocked => {
                format!("kernel blocked, {} generations per dispatch", self.block)
            }
            LifeKernel::Dense => "kernel dense".to_string(),
            LifeKernel::Tiles | LifeKernel::Sparse if self.tiles.is_none() => format!(
                "kernel {}: a B0 rule changes every tile, so the blocked kernel runs the whole torus, {} generations per dispatch",
                self.kernel.name(),
                self.block
            ),
            LifeKernel::Sparse => "kernel sparse (active tiles only)".to_string(),
            LifeKernel::Tiles => format!(
                "kernel tiles (active tiles; dense stretches blocked, {} generations per dispatch)",
                self.block
            ),
        })
    }
}
