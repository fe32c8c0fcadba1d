//! Throw-away probe: the update pass by run_parallel in a pool of N threads, repeated.
use scenewalk_examples::TreeShape;
use scenewalk_examples::passes::update_action;
use scenewalk_examples::rng::SplitMix64;
use scenewalk_examples::scenes::{mixed_graph, random_dfs_parents, random_mild_transform};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let threads: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(16);
    let n: usize = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(2_000_000);
    let reps: usize = args.get(3).and_then(|a| a.parse().ok()).unwrap_or(40);
    let what = args.get(4).cloned().unwrap_or_else(|| "par".into());
    let parents = random_dfs_parents(n, 24, &mut SplitMix64::new(0x9A4));
    let shape = TreeShape::from_parents(parents).expect("tree");
    let (graph, root, _) = mixed_graph(&shape, &mut SplitMix64::new(7), random_mild_transform);
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
    let mut action = update_action().unwrap();
    let mut best = f64::MAX;
    let mut total = 0.0;
    for _ in 0..reps {
        let t = Instant::now();
        if what == "seq" {
            action.run(&graph, root).unwrap();
        } else {
            pool.install(|| action.run_parallel(&graph, root)).unwrap();
        }
        let ms = t.elapsed().as_secs_f64() * 1e3;
        best = best.min(ms);
        total += ms;
    }
    println!("{what} threads {threads} n {n}: best {best:.2} ms, mean {:.2} ms", total / reps as f64);
}
