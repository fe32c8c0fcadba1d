//! stub
use crate::Config;
use scenewalk_examples::report::Row;
pub fn run(_: &Config) -> Vec<Row> {
    Vec::new()
}
