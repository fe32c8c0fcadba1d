//! # Streaming 3D Tiles: selection by screen-space error
//!
//! [`TileSelection`] runs every frame from a [`TileView`]: one
//! [`Action`](scenewalk_core::Action) pipes a
//! [`PriorityQueue`](scenewalk_iterators::PriorityQueue) (largest screen-space error
//! first) through [`TileRefine`] (the error test, REPLACE/ADD refinement with the
//! no-hole rule, load requests) and [`TileCull`] (frustum culling). Around the action,
//! a load queue in three priority [`Group`]s feeds a caller's [`Loader`] on worker
//! threads, and a byte budget unloads the least recently used tiles. Each frame gives
//! the tiles to render and its [`FrameFigures`]. [`Planet`] makes a procedural tileset
//! of any size (a billion tiles and more) to fly through.

pub use cull::TileCull;
#[cfg(feature = "http")]
pub use http::http_loader;
pub use load::{Fetched, Loader, MAX_FILE_BYTES, file_loader};
pub use planet::Planet;
pub use refine::{Group, Request, TileRefine, Want};
pub use selection::{
    FrameFigures, LoadFailure, NODE_BYTES, SelectionError, SelectionOptions, TileSelection,
};
pub use state::{LoadState, TileState};
pub use view::TileView;

mod cull;
#[cfg(feature = "http")]
mod http;
mod load;
mod planet;
mod refine;
mod selection;
mod state;
mod view;
