//! # scenewalk-examples: scenes for examples, benchmarks and tests
//!
//! Deterministic scene generators shared by the examples, the benchmarks and tests,
//! plus the hand-written baselines the benchmarks measure scenewalk against. Nothing
//! here uses an outside random generator: [`rng::SplitMix64`] makes every scene the
//! same on every machine.
//!
//! - Regular trees for measuring: [`quad_tree`] (a full quad tree) and
//!   [`tree_with_nodes`] (exactly `n` nodes), both of [`Group`](scenewalk_nodes::Group)
//!   nodes built in depth-first order, so the arena records lie in walk order.
//! - Scenes for testing: [`random_tree`] (random shape mixing groups, transforms and
//!   geometry) and [`city`](fn@city) / [`city_default`] (blocks → buildings → floors → walls and
//!   rooms, a few thousand nodes).
//! - [`TreeShape`]: a tree as a parent list, which builds the *same* tree as a
//!   scenewalk [`Graph`](scenewalk_core::Graph), as raw first-child / next-sibling
//!   arrays ([`baseline::Links`]) and as nested `Vec` children
//!   ([`baseline::VecNode`]), so a benchmark compares layouts, not shapes.
//! - The tour's city [`CityScene`] (every node type, shared [`CityMeshes`]), its two
//!   passes as actions ([`passes`]) and the same passes written by hand
//!   ([`scene_baseline`]); [`inspect`] (the glTF report), [`svg`] (shaded pictures of a scene) and
//!   [`report`] (the `bench_report` harness and its tables).
//!
//! ```
//! use scenewalk_core::{Action, ActiveList, Flow, Unordered, UnorderedActor, Visit};
//! use scenewalk_examples::TreeShape;
//! use scenewalk_iterators::DepthFirst;
//!
//! struct Count(u64);
//! impl UnorderedActor for Count {
//!     fn enter(&mut self, _: &Visit<'_>, _: &mut ActiveList<'_>) -> Flow {
//!         self.0 += 1;
//!         Flow::Continue
//!     }
//! }
//!
//! let shape = TreeShape::complete(10_000, 4);
//! let (graph, root) = shape.to_graph();
//! let mut action = Action::new(DepthFirst::new(), (Unordered::new(Count(0)),))?;
//! action.run(&graph, root)?;
//!
//! let mut by_hand = 0u64;
//! shape.to_links().preorder(0, |_| by_hand += 1);
//! assert_eq!(action.actor::<Count>().unwrap().0, by_hand);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![forbid(unsafe_code)]

pub use city::{city, city_default};
pub use city_scene::{CityError, CityMeshes, CityScene};
pub use reached::Reached;
pub use scenes::{quad_tree, random_tree, tree_with_nodes};
pub use shape::{NO_PARENT, TreeShape};

pub mod args;
pub mod baseline;
pub mod city;
pub mod city_scene;
pub mod frame;
pub mod inspect;
pub mod passes;
mod reached;
pub mod report;
pub mod rng;
pub mod robot;
pub mod robot_svg;
pub mod scene_baseline;
pub mod scenes;
mod shape;
pub mod svg;
pub mod text;
pub mod tour;

/// The code in `docs/extending.md`, compiled and run as doctests so the guide stays true.
#[cfg(doctest)]
#[doc = include_str!("../../docs/extending.md")]
struct ExtendingGuide;
