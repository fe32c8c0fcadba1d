//! Which triangles a picture writes: hidden ones and ones too small to see are left
//! out, by a coverage grid filled front to back.
//!
//! A triangle samples the grid's cells whose centres it covers (a triangle covering
//! none samples the cell of its centroid). Front to back, a triangle is written when
//! one of its cells is still uncovered, and then covers them: an opaque triangle in
//! the opaque grid, a faint (translucent) one in a grid of its own, and a faint one
//! under opaque cover is hidden too. With one-pixel cells, what is left out is what a
//! renderer sampling pixel centres would not show. A triangle that fits in about a
//! cell and covers one cell centre or none is written as its cell's square (so that many
//! triangles smaller than a cell merge into the one square drawn there); a longer
//! sliver covering no centre is written as itself, one a cell, and hides nothing.
//! Coarser cells bound the count: each triangle written claims a cell of its own in
//! one of three grids (opaque, faint, slivers), so at most three per cell are
//! written.

use scenewalk_core::glam::DVec2;

/// A triangle in pixels of the picture, with its depth (larger is farther).
#[derive(Clone, Copy, Debug)]
pub(super) struct Flat {
    pub corners: [DVec2; 3],
    pub depth: f64,
    pub faint: bool,
}

/// The cell sizes tried, in pixels, until the triangles written fit the budget.
const CELLS: [f64; 10] = [1.0, 1.5, 2.0, 3.0, 4.0, 6.0, 8.0, 12.0, 16.0, 24.0];

/// A triangle to write: its index, and for one smaller than a cell, the corner of the
/// cell square to write instead (in pixels).
pub(super) type Kept = (usize, Option<DVec2>);

/// The triangles to write, back to front, for a picture `size` pixels across, at
/// most `budget` of them (more only when even the coarsest cells leave more), and
/// the cell size used.
pub(super) fn visible(triangles: &[Flat], size: DVec2, budget: usize) -> (Vec<Kept>, f64) {
    let mut order: Vec<usize> = (0..triangles.len()).collect();
    order.sort_by(|&a, &b| {
        let (a, b) = (&triangles[a], &triangles[b]);
        a.depth.total_cmp(&b.depth)
    });
    let mut kept = Vec::new();
    let mut used = 1.0;
    for cell in CELLS {
        used = cell;
        kept = front_to_back(triangles, &order, size, cell);
        if kept.len() <= budget {
            break;
        }
    }
    kept.reverse();
    (kept, used)
}

/// One pass with cells of `cell` pixels: the triangles written, front to back.
fn front_to_back(triangles: &[Flat], order: &[usize], size: DVec2, cell: f64) -> Vec<Kept> {
    let columns = (size.x / cell).ceil().max(1.0) as usize;
    let rows = (size.y / cell).ceil().max(1.0) as usize;
    let mut opaque = vec![false; columns * rows];
    let mut faint = vec![false; columns * rows];
    let mut slivers = vec![false; columns * rows];
    let mut cells = Vec::new();
    let mut kept = Vec::new();
    for &i in order {
        let t = &triangles[i];
        let sampled = sample(t.corners, cell, columns, rows, &mut cells);
        let sliver = sampled == Sampled::Sliver;
        let open = |c: &usize| !(opaque[*c] || (t.faint && faint[*c]) || (sliver && slivers[*c]));
        if !cells.iter().any(open) {
            continue;
        }
        // A sliver paints little of its cell: it hides nothing behind it, and one
        // sliver a cell is written.
        let grid = match (sliver, t.faint) {
            (true, _) => &mut slivers,
            (false, true) => &mut faint,
            (false, false) => &mut opaque,
        };
        for &c in &cells {
            grid[c] = true;
        }
        let square = |c: usize| DVec2::new((c % columns) as f64, (c / columns) as f64) * cell;
        let as_square = (sampled == Sampled::Square)
            .then(|| cells.first().copied().map(square))
            .flatten();
        kept.push((i, as_square));
    }
    kept
}

/// How a triangle samples the grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Sampled {
    /// It covers the centres of the cells listed (none: nothing to write).
    Centres,
    /// It fits in about a cell and covers one centre, or none: written as that cell
    /// (its centroid's).
    Square,
    /// It covers no centre but is longer: written as itself, hiding nothing.
    Sliver,
}

/// The cells (row-major) whose centres `corners` covers, or the cell of its centroid
/// when it covers none; nothing when that lies outside the grid, or for a triangle
/// of no area (seen edge-on, it shows nothing).
fn sample(
    corners: [DVec2; 3],
    cell: f64,
    columns: usize,
    rows: usize,
    out: &mut Vec<usize>,
) -> Sampled {
    out.clear();
    let [a, b, c] = corners;
    let lo = a.min(b).min(c) / cell - 0.5;
    let hi = a.max(b).max(c) / cell - 0.5;
    let area = (b - a).perp_dot(c - a);
    if !(area != 0.0 && area.is_finite()) {
        return Sampled::Centres;
    }
    let (x0, y0) = (lo.x.ceil().max(0.0), lo.y.ceil().max(0.0));
    let (x1, y1) = (
        hi.x.floor().min(columns as f64 - 1.0),
        hi.y.floor().min(rows as f64 - 1.0),
    );
    let sign = area.signum();
    let inside = |p: DVec2| {
        let e = |u: DVec2, v: DVec2| sign * (v - u).perp_dot(p - u) >= 0.0;
        e(a, b) && e(b, c) && e(c, a)
    };
    let mut y = y0;
    while y <= y1 {
        let mut x = x0;
        while x <= x1 {
            if inside(DVec2::new(x + 0.5, y + 0.5) * cell) {
                out.push(y as usize * columns + x as usize);
            }
            x += 1.0;
        }
        y += 1.0;
    }
    // A triangle about a cell across or smaller stands for its one cell.
    let small = (hi - lo).max_element() <= 1.5;
    match out.len() {
        0 => {}
        1 if small => return Sampled::Square,
        _ => return Sampled::Centres,
    }
    let at = (a + b + c) / 3.0 / cell;
    if at.x >= 0.0 && at.y >= 0.0 && at.x < columns as f64 && at.y < rows as f64 {
        out.push(at.y as usize * columns + at.x as usize);
    }
    match small {
        true => Sampled::Square,
        false => Sampled::Sliver,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flat(corners: [(f64, f64); 3], depth: f64) -> Flat {
        Flat {
            corners: corners.map(|(x, y)| DVec2::new(x, y)),
            depth,
            faint: false,
        }
    }

    #[test]
    fn a_triangle_behind_a_larger_one_is_left_out_and_order_is_back_to_front() {
        let near = flat([(0.0, 0.0), (100.0, 0.0), (0.0, 100.0)], 1.0);
        let hidden = flat([(10.0, 10.0), (30.0, 10.0), (10.0, 30.0)], 2.0);
        let beside = flat([(60.0, 60.0), (90.0, 60.0), (60.0, 90.0)], 3.0);
        let (kept, cell) = visible(&[near, hidden, beside], DVec2::splat(100.0), 10);
        assert_eq!((kept, cell), (vec![(2, None), (0, None)], 1.0));
    }

    #[test]
    fn tiny_triangles_merge_into_one_per_cell_and_the_budget_holds() {
        // 40,000 triangles a tenth of a pixel across, over 100 × 100 pixels.
        let mut all = Vec::new();
        for k in 0..40_000 {
            let (x, y) = ((k % 200) as f64 * 0.5, (k / 200) as f64 * 0.5);
            all.push(flat([(x, y), (x + 0.1, y), (x, y + 0.1)], k as f64));
        }
        let (kept, _) = visible(&all, DVec2::splat(100.0), 20_000);
        assert_eq!(kept.len(), 10_000);
        assert!(kept.iter().all(|k| k.1.is_some()), "written as their cells");
        let (kept, cell) = visible(&all, DVec2::splat(100.0), 1_000);
        assert!(
            kept.len() <= 1_000 && cell > 1.0,
            "{} at {cell}",
            kept.len()
        );
    }
}
