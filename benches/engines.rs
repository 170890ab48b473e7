//! `cargo bench`: the CPU engines' cell updates per second on a 50% soup, the fast engine on a
//! 4096x4096 torus against the reference engine on a small one as the in-run baseline.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use lifelab::cpu::{FastEngine, ReferenceEngine};
use lifelab::grid::Grid;
use lifelab::rule::Rule;

fn soup(side: u32) -> Grid {
    let mut g = Grid::new(side, side);
    g.fill_random(0.5, 1);
    g
}

fn engines(c: &mut Criterion) {
    let mut group = c.benchmark_group("cell updates");
    group.sample_size(10);

    let small = soup(256);
    group.throughput(Throughput::Elements(small.cells()));
    group.bench_function("reference B3/S23 256x256", |b| {
        let mut e = ReferenceEngine::new(Rule::life(), &small, 1);
        b.iter(|| e.step_once());
    });

    let big = soup(4096);
    group.throughput(Throughput::Elements(big.cells()));
    for rule in ["B3/S23", "B3678/S34678", "B2/S34H"] {
        let r: Rule = rule.parse().unwrap();
        group.bench_function(format!("fast {rule} 4096x4096"), |b| {
            let mut e = FastEngine::new(r, &big, 1);
            b.iter(|| e.step_once());
        });
    }
    group.finish();
}

criterion_group!(benches, engines);
criterion_main!(benches);
