//! `ActorClass::check_parallel`: which classes a parallel run takes, and the refusal naming the actor.

#![cfg(feature = "parallel")]
#![allow(clippy::restriction, reason = "tests may unwrap and index")]

use scenewalk_core::{ActorClass, Dispatch, Events, StateKind};

fn class(state: StateKind) -> ActorClass {
    ActorClass {
        name: "Count",
        events: Events::EnterLeave,
        state,
        dispatch: Dispatch::PerType,
        batches: false,
    }
}

#[test]
fn only_static_actors_run_in_parallel_without_a_hook() {
    assert!(class(StateKind::Static).check_parallel(false).is_ok());
    for state in [StateKind::Unordered, StateKind::Ordered] {
        assert!(class(state).check_parallel(true).is_ok());
        let err = class(state).check_parallel(false).unwrap_err();
        assert!(err.to_string().contains("Count"), "{err}");
    }
}
