//! Per-node results of a run, by slot and stamped by run, in pages.

#![allow(
    clippy::indexing_slicing,
    reason = "every index into a page is masked with PAGE - 1, and every page holds PAGE entries"
)]

use scenewalk_core::{Graph, NodeId, NodeIndex, ResultsError, Stamp};
use std::sync::{Arc, Mutex};

const PAGE_BITS: usize = 8;
const PAGE: usize = 1 << PAGE_BITS;

type Page<T> = Box<[T; PAGE]>;

/// The most forks' buffers a pool keeps beyond the table's own pages (a run forks a
/// few per task).
pub(crate) const FORKS: usize = 1024;

/// A page a fork wrote: its number, the page and which entries it wrote; `order`
/// is the fork's place among the merges (set when they reach the table).
#[derive(Clone, Debug)]
struct ForkPage<T> {
    number: usize,
    order: usize,
    page: Page<T>,
    written: [u64; PAGE / 64],
}

/// A page of `fill`s.
fn page<T: Copy>(fill: T) -> Page<T> {
    // A boxed slice of PAGE entries always converts (and is built on the heap).
    let page = vec![fill; PAGE].into_boxed_slice().try_into();
    page.unwrap_or_else(|_| Box::new([fill; PAGE]))
}

/// A table of entries in pages: a parallel run's fork holds only the pages it writes.
#[derive(Clone, Debug)]
pub(crate) struct Pages<T> {
    pages: Vec<Page<T>>,
    fill: T,
    /// In a fork: the pages it wrote, by number, and which of them it wrote last.
    forked: Option<Vec<ForkPage<T>>>,
    last: usize,
    /// Forks merged, waiting for [`finish`](Self::finish), and its buffer.
    pending: Vec<Vec<ForkPage<T>>>,
    pieces: Vec<ForkPage<T>>,
    /// Pages and page lists kept for the next run's forks: a warm parallel run
    /// allocates none.
    spare: Spares<Page<T>>,
    lists: Spares<Vec<ForkPage<T>>>,
}

impl<T: Copy> Pages<T> {
    /// An empty table; `fill` is what entries never written hold.
    pub(crate) fn new(fill: T) -> Self {
        Self {
            pages: Vec::new(),
            fill,
            forked: None,
            last: 0,
            pending: Vec::new(),
            pieces: Vec::new(),
            spare: Spares::default(),
            lists: Spares::default(),
        }
    }

    /// Grows the table to at least `len` entries.
    pub(crate) fn grow(&mut self, len: usize) {
        while self.pages.len() << PAGE_BITS < len {
            self.pages.push(page(self.fill));
        }
    }

    /// Forgets unfinished merges (a new run starts), keeping their pages.
    pub(crate) fn drop_pending(&mut self) {
        for mut fork in std::mem::take(&mut self.pending) {
            let cap = self.pages.len() + FORKS;
            fork.drain(..).for_each(|p| self.spare.give(p.page, cap));
            self.lists.give(fork, FORKS);
        }
    }

    /// The entry at `i`: the table's, or in a fork the one it wrote.
    #[inline(always)]
    pub(crate) fn get(&self, i: usize) -> Option<&T> {
        match self.pages.get(i >> PAGE_BITS) {
            Some(page) => Some(&page[i & (PAGE - 1)]),
            None => self.get_forked(i),
        }
    }

    /// The entry at `i` of the table (not a fork), writable.
    #[inline(always)]
    pub(crate) fn get_mut(&mut self, i: usize) -> Option<&mut T> {
        Some(&mut self.pages.get_mut(i >> PAGE_BITS)?[i & (PAGE - 1)])
    }

    /// Writes entry `i` (in a fork, into its own page).
    #[inline(always)]
    pub(crate) fn set(&mut self, i: usize, value: T) {
        // A fork holds no `pages`: its writes take the other path.
        if let Some(entry) = self.get_mut(i) {
            *entry = value;
        } else if self.forked.is_some() {
            self.set_forked(i, value);
        }
    }

    #[inline]
    fn get_forked(&self, i: usize) -> Option<&T> {
        let pages = self.forked.as_ref()?;
        let number = i >> PAGE_BITS;
        let page = match pages.get(self.last) {
            Some(p) if p.number == number => p,
            _ => pages.get(pages.binary_search_by_key(&number, |p| p.number).ok()?)?,
        };
        // A page from the pool may hold another fork's entries of this run.
        let at = i & (PAGE - 1);
        (page.written[at / 64] & (1 << (at % 64)) != 0).then(|| &page.page[at])
    }

    #[inline]
    fn set_forked(&mut self, i: usize, value: T) {
        let (number, at) = (i >> PAGE_BITS, i & (PAGE - 1));
        let k = match self.forked.as_ref().and_then(|p| p.get(self.last)) {
            Some(p) if p.number == number => self.last,
            _ => self.fork_page(number),
        };
        if let Some(p) = self.forked.as_mut().and_then(|p| p.get_mut(k)) {
            p.written[at / 64] |= 1 << (at % 64);
            p.page[at] = value;
        }
    }

    /// The fork's page `number`, taken at its first write.
    #[cold]
    fn fork_page(&mut self, number: usize) -> usize {
        let Some(pages) = &mut self.forked else {
            return 0;
        };
        self.last = pages
            .binary_search_by_key(&number, |p| p.number)
            .unwrap_or_else(|k| {
                let page = self.spare.take().unwrap_or_else(|| page(self.fill));
                let written = [0; PAGE / 64];
                let order = 0;
                pages.insert(
                    k,
                    ForkPage {
                        number,
                        order,
                        page,
                        written,
                    },
                );
                k
            });
        self.last
    }
}

/// Entries never written hold `T::default()`.
impl<T: Copy + Default> Default for Pages<T> {
    fn default() -> Self {
        Self::new(T::default())
    }
}

impl<T: Copy + Send + Sync> Pages<T> {
    /// An empty table for a parallel worker.
    pub(crate) fn fork(&self) -> Self {
        Self {
            forked: Some(self.lists.take().unwrap_or_default()),
            spare: self.spare.share(),
            lists: self.lists.share(),
            ..Self::new(self.fill)
        }
    }

    /// Takes a fork's writes in: they reach the table at [`finish`](Self::finish).
    pub(crate) fn merge(&mut self, mut worker: Self) {
        self.pending.push(worker.forked.take().unwrap_or_default());
    }

    /// Puts the merged forks' writes in the table, on every thread: a page one fork
    /// filled replaces the table's; others' written entries are copied in merge order.
    /// Only the pages the forks wrote are visited (none after a run without forks).
    pub(crate) fn finish(&mut self) {
        if self.pending.is_empty() {
            return;
        }
        let mut pieces = std::mem::take(&mut self.pieces);
        for (order, mut fork) in self.pending.drain(..).enumerate() {
            fork.iter_mut().for_each(|p| p.order = order);
            pieces.append(&mut fork);
            self.lists.give(fork, FORKS);
        }
        // A page's pieces in merge order; unstable sorts allocate nothing.
        pieces.sort_unstable_by_key(|p| (p.number, p.order));
        let mut jobs: Vec<(&mut Page<T>, &[ForkPage<T>])> = Vec::new();
        let (mut pages, mut rest) = (self.pages.iter_mut(), pieces.as_mut_slice());
        // The number of the page `pages` yields next.
        let mut at = 0;
        while let Some(number) = rest.first().map(|p| p.number) {
            let count = rest.iter().take_while(|p| p.number == number).count();
            let (mine, next) = rest.split_at_mut(count);
            rest = next;
            // A slice's iterator skips ahead in one step.
            let Some(ours) = pages.nth(number - at) else {
                break;
            };
            at = number + 1;
            match mine {
                [whole] if whole.written == [u64::MAX; PAGE / 64] => {
                    std::mem::swap(ours, &mut whole.page)
                }
                _ => jobs.push((ours, mine)),
            }
        }
        crate::shared::for_each(jobs, |(ours, pieces)| {
            for p in pieces {
                for (at, (to, from)) in ours.iter_mut().zip(p.page.iter()).enumerate() {
                    if p.written[at / 64] & (1 << (at % 64)) != 0 {
                        *to = *from;
                    }
                }
            }
        });
        let cap = self.pages.len() + FORKS;
        pieces.drain(..).for_each(|p| self.spare.give(p.page, cap));
        self.pieces = pieces;
    }
}

/// A [`PerNode`] slot: its value, and the run that wrote it.
#[derive(Clone, Copy, Debug)]
struct Entry<T> {
    value: T,
    run: u32,
}

/// A value per node written during a run and read after it; it counts only if the
/// latest run wrote it. Read by id ([`read`](Self::read)), values are checked against
/// the run's [`Stamp`]; by slot ([`get_at`](Self::get_at)), not (for checked readers).
///
/// ```
/// use scenewalk_actors::PerNode;
/// use scenewalk_core::Graph;
/// # #[derive(Clone, Debug)] struct Group;
/// # impl scenewalk_core::NodeCore for Group {}
/// let mut graph = Graph::new();
/// let root = graph.add_root(Group);
/// let child = graph.append_child(root, Group)?;
/// let mut table = PerNode::new(0u32);
/// table.begin(&graph, root.index());
/// table.set(child.index(), 7);
/// assert_eq!(table.get_at(child.index()), Some(7));
/// assert_eq!(table.get_at(root.index()), None); // not written this run
/// assert_eq!(table.read("example", "PerNode", &graph, child)?, 7);
/// graph.append_child(root, Group)?;
/// assert!(table.read("example", "PerNode", &graph, child).is_err()); // stale
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct PerNode<T> {
    entries: Pages<Entry<T>>,
    run: u32,
    stamp: Option<Stamp>,
}

impl<T: Copy> PerNode<T> {
    /// An empty table; `fill` is the value unreached nodes hold internally.
    pub fn new(fill: T) -> Self {
        Self {
            entries: Pages::new(Entry {
                value: fill,
                run: 0,
            }),
            run: 0,
            stamp: None,
        }
    }

    /// Starts a run over `graph` from `root`, forgetting earlier runs' values.
    pub fn begin(&mut self, graph: &Graph, root: NodeIndex) {
        self.entries.drop_pending();
        self.stamp = Some(Stamp::new(graph, root));
        self.entries.grow(graph.capacity());
        self.run = self.run.wrapping_add(1);
        if self.run == 0 {
            // The stamps wrap: clear them once so none looks current.
            for page in &mut self.entries.pages {
                page.iter_mut().for_each(|e| e.run = 0);
            }
            self.run = 1;
        }
    }

    /// Continues the latest run over `graph` as it is now, keeping every value (a patch
    /// sets or unsets every slot the edits touched).
    pub(crate) fn resume(&mut self, graph: &Graph) {
        if let Some(stamp) = self.stamp {
            self.stamp = Some(Stamp::new(graph, stamp.root()));
            self.entries.grow(graph.capacity());
        }
    }

    /// What the latest run's values describe (`None` before the first run).
    pub fn stamp(&self) -> Option<Stamp> {
        self.stamp
    }

    /// Forgets the value of slot `node`, so it reads as `None`.
    #[inline]
    pub(crate) fn unset(&mut self, node: NodeIndex) {
        if let Some(entry) = self.entries.get_mut(node.get()) {
            entry.run = 0;
        }
    }

    /// Writes the value of the node in slot `node`.
    #[inline(always)]
    pub fn set(&mut self, node: NodeIndex, value: T) {
        let run = self.run;
        self.entries.set(node.get(), Entry { value, run });
    }

    /// The value written for slot `node` in the latest run (in a fork: by this worker).
    #[inline]
    pub fn get_at(&self, node: NodeIndex) -> Option<T> {
        let entry = self.entries.get(node.get())?;
        (entry.run == self.run).then_some(entry.value)
    }

    /// The value held for slot `node`, whichever run wrote it.
    #[inline]
    pub(crate) fn value_at(&self, node: NodeIndex) -> Option<T> {
        Some(self.entries.get(node.get())?.value)
    }

    /// Replaces the value of slot `node`, keeping its stamp.
    #[inline]
    pub(crate) fn overwrite(&mut self, node: NodeIndex, value: T) {
        if let Some(entry) = self.entries.get_mut(node.get()) {
            entry.value = value;
        }
    }

    /// A mutable reference to the value of slot `node` in this run, if written.
    #[inline]
    pub fn get_mut_at(&mut self, node: NodeIndex) -> Option<&mut T> {
        let run = self.run;
        let entry = self.entries.get_mut(node.get())?;
        (entry.run == run).then_some(&mut entry.value)
    }

    /// The value for `id`, checked: the latest run was over `graph` as it is now and
    /// reached the node. `reader` and `results` name the accessor and table in errors.
    pub fn read(
        &self,
        reader: &'static str,
        results: &'static str,
        graph: &Graph,
        id: NodeId,
    ) -> Result<T, ResultsError> {
        Stamp::checked(self.stamp, reader, results, |s| s.check_graph(graph))?;
        if !graph.contains(id) {
            return Err(scenewalk_core::GraphError::StaleNode(id).into());
        }
        self.get_at(id.index()).ok_or(ResultsError::NotReached(id))
    }
}

/// An empty table whose unreached nodes hold `T::default()` internally.
impl<T: Copy + Default> Default for PerNode<T> {
    fn default() -> Self {
        Self::new(T::default())
    }
}

/// Parallel runs: a worker's table holds only the pages it writes.
impl<T: Copy + Send + Sync> PerNode<T> {
    /// A table for a parallel worker of the current run: its writes read back in the
    /// worker and reach this table by [`merge`](Self::merge).
    pub fn fork(&self) -> Self {
        Self {
            entries: self.entries.fork(),
            run: self.run,
            stamp: self.stamp,
        }
    }

    /// Takes a fork's writes in, for [`finish_merges`](Self::finish_merges) (a slot two
    /// forks wrote gets the later merge's value).
    pub fn merge(&mut self, worker: Self) {
        self.entries.merge(worker.entries);
    }

    /// Puts the merged forks' writes in the table.
    pub fn finish_merges(&mut self) {
        self.entries.finish();
    }
}

/// Buffers kept from one parallel run's workers for the next's (a fork sees its parent
/// by `&`, hence the lock). A clone has none.
#[derive(Debug)]
pub(crate) struct Spares<V>(Arc<Mutex<Vec<V>>>);

impl<V> Default for Spares<V> {
    fn default() -> Self {
        Self(Arc::new(Mutex::new(Vec::new())))
    }
}

impl<V> Clone for Spares<V> {
    fn clone(&self) -> Self {
        Self::default()
    }
}

impl<V> Spares<V> {
    /// The same pool, for a fork.
    pub(crate) fn share(&self) -> Self {
        Self(Arc::clone(&self.0))
    }

    pub(crate) fn take(&self) -> Option<V> {
        self.0.lock().ok()?.pop()
    }

    /// Keeps `buffer` unless the pool holds `cap` already (merges of forks' clones
    /// would otherwise grow it run after run).
    pub(crate) fn give(&self, buffer: V, cap: usize) {
        if let Ok(mut spares) = self.0.lock()
            && spares.len() < cap
        {
            spares.push(buffer);
        }
    }
}
