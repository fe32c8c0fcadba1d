//! The tour's picture: every drawable's surface (meshes' triangles, skinned meshes
//! posed, plain geometry's boxes), shaded where the view draws it and faint where it
//! does not, the frustum's outline, the camera, the picks and a contact.

use super::surface::Surface;
use super::{Drawable, counted};
use crate::svg::{Picture, Projection, Style};
use scenewalk_core::NodeIndex;
use scenewalk_core::glam::Vec3;
use scenewalk_nodes::Ray;
use std::collections::HashSet;

/// What the picture shows besides the drawables.
pub(super) struct Extras<'a> {
    /// The camera's place and the direction it looks.
    pub eye: Vec3,
    pub forward: Vec3,
    /// The frustum's corners (none for an infinite far plane).
    pub corners: Option<&'a [Vec3; 8]>,
    /// The pick rays and their hits.
    pub rays: &'a [(Ray, Option<Vec3>)],
    /// A collision contact.
    pub contact: Option<Vec3>,
    /// A box to frame the picture around instead of the whole scene, leaving out the
    /// drawables not near it.
    pub focus: Option<scenewalk_core::Aabb>,
}

/// The picture through `projection`: `drawables` with their `surfaces` (shaded where
/// `drawn` holds their node, faint grey where the view did not draw them), and the
/// extras. Framed around the drawables (through a camera: its view).
pub(super) fn draw(
    title: String,
    projection: Projection,
    drawables: &[Drawable],
    surfaces: &[Surface],
    drawn: &HashSet<NodeIndex>,
    extras: &Extras<'_>,
) -> Picture {
    let mut picture = Picture::new(title, projection);
    if let Some(focus) = &extras.focus {
        picture.focus(focus);
    }
    let (mut shown, mut hidden) = (0, 0);
    // With a focus, only what lies near it: a section, so that buildings in front of
    // it do not hide it.
    let near = extras.focus.map(|f| {
        let grow = f.size() * 0.5;
        scenewalk_core::Aabb::new(f.min - grow, f.max + grow)
    });
    for (k, (d, surface)) in drawables.iter().zip(surfaces).enumerate() {
        if near.is_some_and(|near| !near.overlaps(&d.world_box)) {
            continue;
        }
        picture.object(k);
        let style = if drawn.contains(&d.node.index()) {
            shown += 1;
            Style::Visible
        } else {
            hidden += 1;
            Style::Culled
        };
        match surface {
            Surface::Triangles(triangles) => {
                for &t in triangles {
                    picture.triangle(t, style);
                }
            }
            Surface::Box(b) => picture.cuboid(b, style),
        }
    }
    if let Some(corners) = extras.corners {
        picture.outline(corners, Style::Frustum);
    }
    picture.camera(extras.eye, extras.forward);
    // Rays that miss run to the far side of the frustum.
    let far = extras.corners.map_or(1.0, |c| (c[4] - c[0]).length());
    for (ray, hit) in extras.rays {
        match hit {
            Some(hit) => {
                picture.line(ray.origin(), *hit, Style::Ray);
                picture.dot(*hit, Style::Hit);
            }
            None => picture.line(ray.origin(), ray.at(far), Style::Ray),
        }
    }
    if let Some(at) = extras.contact {
        picture.dot(at, Style::Contact);
    }
    picture.legend(
        Style::Visible,
        format!(
            "{} the view pass draws, shaded by the angle to a light",
            counted(shown, "object", "objects")
        ),
    );
    picture.legend(
        Style::Culled,
        format!(
            "{} it does not draw (culled, or a level of detail or switch child not chosen)",
            counted(hidden, "object", "objects")
        ),
    );
    picture.legend(Style::Frustum, "the camera's view frustum");
    picture.legend(Style::Camera, "the camera, looking along its stroke");
    let hits = extras.rays.iter().filter(|(_, hit)| hit.is_some()).count();
    picture.legend(
        Style::Hit,
        format!(
            "pick rays ({} of {} hit) and their nearest hits",
            hits,
            extras.rays.len()
        ),
    );
    if extras.rays.iter().all(|(_, hit)| hit.is_none()) {
        picture.legend(
            Style::Ray,
            format!("pick rays (none of {} hit)", extras.rays.len()),
        );
    }
    picture.legend(Style::Contact, "a collision contact");
    picture
}
