//! Where a world point lands in a picture: the four views and their projections.

use scenewalk_core::glam::{Affine3A, DMat4, DVec3, Vec3};
use scenewalk_nodes::{Camera, Projection as Lens};
use std::fmt;
use std::str::FromStr;

/// The direction a picture looks from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum View {
    /// From above, down −y: x to the right, z downwards.
    #[default]
    Top,
    /// From the front, along −z: x to the right, y up.
    Front,
    /// From the side, along −x: −z to the right, y up.
    Side,
    /// Through the scene's camera, in perspective (or its orthographic lens).
    Camera,
}

impl View {
    /// Every view, in the order `--help` lists them.
    pub const ALL: [View; 4] = [View::Top, View::Front, View::Side, View::Camera];

    /// The view's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            View::Top => "top",
            View::Front => "front",
            View::Side => "side",
            View::Camera => "camera",
        }
    }
}

impl fmt::Display for View {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for View {
    type Err = String;

    /// `top`, `front`, `side` or `camera`.
    ///
    /// ```
    /// use scenewalk_examples::svg::View;
    /// assert_eq!("side".parse::<View>(), Ok(View::Side));
    /// assert_eq!("above".parse::<View>().unwrap_err(), r#"top, front, side or camera, not "above""#);
    /// ```
    fn from_str(s: &str) -> Result<View, String> {
        View::ALL
            .into_iter()
            .find(|v| v.name() == s)
            .ok_or_else(|| format!("top, front, side or camera, not {s:?}"))
    }
}

/// A projection: world points to picture coordinates (x right, y down, in world
/// units for the orthographic views, in units of half the view's height through a
/// camera) and a depth (larger is farther from the viewer), in f64.
#[derive(Clone, Copy, Debug)]
pub struct Projection {
    view: View,
    /// Through a camera: the view-projection matrix, the aspect ratio and the near
    /// distance (nearer points are dropped).
    lens: Option<(DMat4, DMat4, f64, f64)>,
}

impl Projection {
    /// One of the orthographic views (`Top`, `Front`, `Side`); `Camera` needs
    /// [`through`](Projection::through) and is taken as `Top` here.
    pub fn orthographic(view: View) -> Projection {
        let view = if view == View::Camera {
            View::Top
        } else {
            view
        };
        Projection { view, lens: None }
    }

    /// Through `camera` placed at `placed` (its world transform).
    pub fn through(camera: &Camera, placed: &Affine3A) -> Projection {
        let (aspect, near) = match *camera.projection() {
            Lens::Perspective { aspect, near, .. } => (aspect.unwrap_or(1.0), near),
            Lens::Orthographic {
                xmag, ymag, near, ..
            } => (xmag / ymag, near),
        };
        let view = DMat4::from(placed.inverse().as_daffine3());
        let projection = camera.projection_matrix().as_dmat4() * view;
        Projection {
            view: View::Camera,
            lens: Some((projection, view, f64::from(aspect), f64::from(near))),
        }
    }

    /// The view.
    pub fn view(&self) -> View {
        self.view
    }

    /// Through a camera: the half-width and half-height of what it sees, in picture
    /// coordinates (the frame is fixed); `None` for the orthographic views.
    pub fn frame(&self) -> Option<(f64, f64)> {
        self.lens.map(|(_, _, aspect, _)| (aspect, 1.0))
    }

    /// `p` in the viewer's frame: picture x (right), picture y (down), depth (away).
    /// `None` for a point that is not finite, or through a camera at or before its
    /// near plane.
    pub fn project(&self, p: Vec3) -> Option<DVec3> {
        if !p.is_finite() {
            return None;
        }
        let p = p.as_dvec3();
        let out = match (self.view, self.lens) {
            (View::Camera, Some((projection, view, aspect, near))) => {
                let depth = -view.transform_point3(p).z;
                if depth < near {
                    return None;
                }
                let clip = projection * p.extend(1.0);
                if clip.w <= 0.0 {
                    return None;
                }
                DVec3::new(clip.x / clip.w * aspect, -clip.y / clip.w, depth)
            }
            (View::Front, _) => DVec3::new(p.x, -p.y, -p.z),
            (View::Side, _) => DVec3::new(-p.z, -p.y, -p.x),
            _ => DVec3::new(p.x, p.z, -p.y),
        };
        out.is_finite().then_some(out)
    }

    /// The viewer's right, down and away directions in world space (through a
    /// camera: its axes).
    pub fn basis(&self) -> [DVec3; 3] {
        match (self.view, self.lens) {
            (View::Camera, Some((_, view, _, _))) => {
                // The rows of the view matrix's rotation are the camera's axes.
                let m = view.transpose();
                [
                    m.x_axis.truncate(),
                    -m.y_axis.truncate(),
                    -m.z_axis.truncate(),
                ]
                .map(|a| a.normalize_or_zero())
            }
            (View::Front, _) => [DVec3::X, DVec3::NEG_Y, DVec3::NEG_Z],
            (View::Side, _) => [DVec3::NEG_Z, DVec3::NEG_Y, DVec3::NEG_X],
            _ => [DVec3::X, DVec3::Z, DVec3::NEG_Y],
        }
    }

    /// The axes the picture shows, in words, for its title.
    pub fn axes(&self) -> &'static str {
        match self.view {
            View::Top => "top view (x right, z down)",
            View::Front => "front view (x right, y up)",
            View::Side => "side view (−z right, y up)",
            View::Camera => "the camera's view",
        }
    }
}
