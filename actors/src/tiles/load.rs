//! Loads: the loader the caller gives, run inline or on worker threads.

use super::refine::Want;
use scenewalk_core::NodeId;
use std::collections::VecDeque;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;
use std::sync::{Arc, Mutex, mpsc};
use std::thread::JoinHandle;
use std::time::Duration;

/// What a loader returns for a URI.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fetched {
    /// The file's bytes (needed for tilesets and subtrees; kept for contents).
    Bytes(Vec<u8>),
    /// Only the size of a content the caller holds itself (or generates).
    Size(u64),
}

/// Fetches a URI relative to the root tileset's folder; an `Err` is reported as the
/// load's failure. It runs on worker threads; a panic in it counts as a failure.
pub type Loader = Arc<dyn Fn(&str) -> Result<Fetched, String> + Send + Sync>;

/// The largest file [`file_loader`] reads.
pub const MAX_FILE_BYTES: u64 = 1 << 30;

/// A loader that reads URIs as files under `folder` (regular files only, at most
/// [`MAX_FILE_BYTES`]; the selection has already refused URIs that leave the folder).
pub fn file_loader(folder: impl Into<PathBuf>) -> Loader {
    let folder = folder.into();
    Arc::new(move |uri: &str| {
        let path = folder.join(uri.split(['?', '#']).next().unwrap_or(uri));
        let meta = std::fs::metadata(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        if !meta.is_file() {
            return Err(format!("{}: not a regular file", path.display()));
        }
        if meta.len() > MAX_FILE_BYTES {
            return Err(format!(
                "{}: {} bytes, over {MAX_FILE_BYTES}",
                path.display(),
                meta.len()
            ));
        }
        std::fs::read(&path)
            .map(Fetched::Bytes)
            .map_err(|e| format!("{}: {e}", path.display()))
    })
}

/// A load handed to the loader.
#[derive(Clone, Debug)]
pub(crate) struct Job {
    pub(crate) node: NodeId,
    pub(crate) want: Want,
    pub(crate) uris: Vec<String>,
}

/// A load come back: the bytes of a single file (if returned) and the total size, or
/// the URI that failed and why.
pub(crate) struct Done {
    pub(crate) job: Job,
    pub(crate) result: Outcome,
}

/// `(bytes of a single file, total size)`, or `(uri, error)`.
pub(crate) type Outcome = Result<(Option<Vec<u8>>, u64), (String, String)>;

fn run(loader: &Loader, job: Job) -> Done {
    let mut bytes = None;
    let mut total = 0u64;
    let single = job.uris.len() == 1;
    let mut result = Ok(());
    for uri in &job.uris {
        let fetched = catch_unwind(AssertUnwindSafe(|| loader(uri)))
            .unwrap_or_else(|_| Err("the loader panicked".to_owned()));
        match fetched {
            Ok(Fetched::Bytes(b)) => {
                total = total.saturating_add(b.len() as u64);
                if single {
                    bytes = Some(b);
                }
            }
            Ok(Fetched::Size(_)) if job.want == Want::Structure => {
                result = Err((
                    uri.clone(),
                    "the loader gave a size where the file is needed".to_owned(),
                ));
                break;
            }
            Ok(Fetched::Size(n)) => total = total.saturating_add(n),
            Err(e) => {
                result = Err((uri.clone(), e));
                break;
            }
        }
    }
    Done {
        job,
        result: result.map(|()| (bytes, total)),
    }
}

/// Runs loads: inline (no threads: each load completes when handed over, and is
/// applied at the next frame) or on a pool of worker threads.
pub(crate) struct Workers {
    loader: Loader,
    jobs: Option<mpsc::Sender<Job>>,
    done: Option<mpsc::Receiver<Done>>,
    handles: Vec<JoinHandle<()>>,
    inline: VecDeque<Done>,
}

impl Workers {
    pub(crate) fn new(loader: Loader, threads: usize) -> Self {
        let mut workers = Workers {
            loader,
            jobs: None,
            done: None,
            handles: Vec::new(),
            inline: VecDeque::new(),
        };
        if threads == 0 {
            return workers;
        }
        let (job_tx, job_rx) = mpsc::channel::<Job>();
        let (done_tx, done_rx) = mpsc::channel::<Done>();
        let job_rx = Arc::new(Mutex::new(job_rx));
        for _ in 0..threads {
            let (jobs, done, loader) = (
                Arc::clone(&job_rx),
                done_tx.clone(),
                Arc::clone(&workers.loader),
            );
            workers.handles.push(std::thread::spawn(move || {
                loop {
                    let job = match jobs.lock() {
                        Ok(rx) => rx.recv(),
                        Err(_) => return,
                    };
                    let Ok(job) = job else { return };
                    if done.send(run(&loader, job)).is_err() {
                        return;
                    }
                }
            }));
        }
        workers.jobs = Some(job_tx);
        workers.done = Some(done_rx);
        workers
    }

    pub(crate) fn submit(&mut self, job: Job) {
        match &self.jobs {
            Some(tx) => {
                if let Err(mpsc::SendError(job)) = tx.send(job) {
                    // The pool is gone: run it here.
                    self.inline.push_back(run(&self.loader, job));
                }
            }
            None => self.inline.push_back(run(&self.loader, job)),
        }
    }

    /// The loads come back since the last call.
    pub(crate) fn finished(&mut self) -> Vec<Done> {
        let mut out: Vec<Done> = self.inline.drain(..).collect();
        if let Some(rx) = &self.done {
            out.extend(rx.try_iter());
        }
        out
    }

    /// Waits up to `timeout` for one load to come back.
    pub(crate) fn wait(&mut self, timeout: Duration) -> Option<Done> {
        if let Some(d) = self.inline.pop_front() {
            return Some(d);
        }
        self.done.as_ref()?.recv_timeout(timeout).ok()
    }
}

impl Drop for Workers {
    /// Closes the queue; workers end after their current load (not waited for: a
    /// loader stuck on the network must not hold the caller).
    fn drop(&mut self) {
        self.jobs = None;
        self.handles.clear();
    }
}
