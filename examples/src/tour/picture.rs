//! The tour's top view: every drawable of the scene, the frustum, the picks and a
//! contact.

use super::{Drawable, counted};
use crate::svg::{Style, TopView};
use scenewalk_core::NodeIndex;
use scenewalk_core::glam::Vec3;
use scenewalk_nodes::Ray;
use std::collections::HashSet;

/// The picture: `drawables` (green where `drawn` holds their node, grey where the
/// view did not draw them), the frustum's `corners`, the pick `rays` to their hits
/// and a `contact`. Framed around the drawables.
pub(super) fn draw(
    title: String,
    drawables: &[Drawable],
    drawn: &HashSet<NodeIndex>,
    corners: Option<&[Vec3; 8]>,
    rays: &[(Ray, Option<Vec3>)],
    contact: Option<Vec3>,
) -> TopView {
    let mut top = TopView::new(title);
    let (shown, hidden): (Vec<&Drawable>, Vec<&Drawable>) = drawables
        .iter()
        .partition(|d| drawn.contains(&d.node.index()));
    // The hidden first, so that what the view draws lies on top.
    for d in &hidden {
        top.rect(&d.world_box, Style::Culled);
    }
    for d in &shown {
        top.rect(&d.world_box, Style::Visible);
    }
    if let Some(corners) = corners {
        top.hull(corners, Style::Frustum);
    }
    // Rays that miss run to the far side of the frustum.
    let far = corners.map_or(1.0, |c| (c[4] - c[0]).length());
    for (ray, hit) in rays {
        match hit {
            Some(hit) => {
                top.line(ray.origin(), *hit, Style::Ray);
                top.dot(*hit, Style::Hit);
            }
            None => top.line(ray.origin(), ray.at(far), Style::Ray),
        }
    }
    if let Some(at) = contact {
        top.dot(at, Style::Contact);
    }
    top.legend(
        Style::Visible,
        format!(
            "{} the view pass draws",
            counted(shown.len(), "object", "objects")
        ),
    );
    top.legend(
        Style::Culled,
        format!(
            "{} it does not draw (culled, or a level of detail or switch child not chosen)",
            counted(hidden.len(), "object", "objects")
        ),
    );
    top.legend(Style::Frustum, "the camera's view frustum");
    top.legend(Style::Hit, "pick rays and their nearest hits");
    if contact.is_some() {
        top.legend(Style::Contact, "a collision contact");
    }
    top
}
