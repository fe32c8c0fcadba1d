//! Tilesets over HTTP (feature `http`).

use super::load::MAX_FILE_BYTES;
use super::{Fetched, Loader};
use std::sync::Arc;
use std::time::Duration;

/// A loader that fetches URIs under `base` (`http://host/path/`, a `/` added if
/// missing) with plain HTTP GET: a status other than 200, a body cut short, one over
/// [`MAX_FILE_BYTES`] or a request longer than `timeout` (connection to last byte) is
/// the load's error. Its requests share one connection pool.
pub fn http_loader(base: &str, timeout: Duration) -> Loader {
    let base = if base.ends_with('/') {
        base.to_owned()
    } else {
        format!("{base}/")
    };
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .timeout_global(Some(timeout))
        .http_status_as_error(false)
        .build()
        .into();
    Arc::new(move |uri: &str| {
        let url = format!("{base}{uri}");
        let mut response = agent.get(&url).call().map_err(|e| format!("{url}: {e}"))?;
        let status = response.status();
        if status != 200 {
            return Err(format!("{url}: HTTP {status}"));
        }
        response
            .body_mut()
            .with_config()
            .limit(MAX_FILE_BYTES)
            .read_to_vec()
            .map(Fetched::Bytes)
            .map_err(|e| format!("{url}: {e}"))
    })
}
