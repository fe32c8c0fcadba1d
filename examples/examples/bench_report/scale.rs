//! stub
pub fn run() -> String {
    String::new()
}
