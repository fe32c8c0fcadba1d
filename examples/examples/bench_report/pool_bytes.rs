//! Bytes a parallel run allocates on every thread it uses. `allocation-counter` counts
//! per thread, so the run goes to a fresh rayon pool whose worker threads are each
//! counted for their whole life.

use std::sync::mpsc;

/// The bytes `run` allocates on the calling thread and on the worker threads of a
/// fresh pool of `threads` threads it is installed in, less what such a pool's
/// threads allocate to start and stop (measured with a pool that runs nothing).
pub fn allocated_on_all_threads(threads: usize, run: impl FnOnce() + Send) -> u64 {
    let start_stop = in_counted_pool(threads, None::<fn()>);
    in_counted_pool(threads, Some(run)).saturating_sub(start_stop)
}

/// All bytes allocated by `run` on the calling thread and by the pool's workers.
fn in_counted_pool(threads: usize, run: Option<impl FnOnce() + Send>) -> u64 {
    let (sender, totals) = mpsc::channel();
    let mut workers = Vec::new();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .spawn_handler(|thread| {
            let sender = sender.clone();
            workers.push(std::thread::spawn(move || {
                let info = allocation_counter::measure(|| thread.run());
                sender.send(info.bytes_total).ok();
            }));
            Ok(())
        })
        .build()
        .expect("a thread pool");
    let calling = allocation_counter::measure(|| {
        if let Some(run) = run {
            pool.install(run);
        }
    });
    drop(pool);
    for worker in workers {
        worker.join().expect("a pool thread ends");
    }
    drop(sender);
    calling.bytes_total + totals.iter().sum::<u64>()
}
