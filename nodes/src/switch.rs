//! The switch node: which children are on.

use scenewalk_core::NodeCore;

/// Which children of a [`Switch`] are traversed.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub enum Selection {
    /// No child.
    None,
    /// Every child.
    #[default]
    All,
    /// One child, by position (none if it has no such child).
    One(usize),
    /// Child `i` when `mask[i]` is true; children past the mask's end are off.
    Mask(Vec<bool>),
}

/// A node that turns its children on and off (OpenSG's `Switch`, Coin3D's `SoSwitch`).
///
/// ```
/// use scenewalk_nodes::{Selection, Switch};
/// let switch = Switch::new(Selection::Mask(vec![true, false, true]));
/// assert_eq!((0..4).map(|i| switch.is_on(i)).collect::<Vec<_>>(), [true, false, true, false]);
/// assert!(Switch::new(Selection::One(1)).is_on(1));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Switch {
    selection: Selection,
}

impl Switch {
    /// A switch with this selection.
    pub fn new(selection: Selection) -> Switch {
        Switch { selection }
    }

    /// The selection.
    pub fn selection(&self) -> &Selection {
        &self.selection
    }

    /// Changes the selection.
    pub fn set(&mut self, selection: Selection) {
        self.selection = selection;
    }

    /// Whether the child at position `child` is on.
    #[inline]
    pub fn is_on(&self, child: usize) -> bool {
        match &self.selection {
            Selection::None => false,
            Selection::All => true,
            Selection::One(i) => *i == child,
            Selection::Mask(mask) => mask.get(child).copied().unwrap_or(false),
        }
    }
}

impl NodeCore for Switch {}
