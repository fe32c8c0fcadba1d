//! Tilesets over HTTP from a local server with slow, failing and truncated responses:
//! each is a reported failure, the parent stays shown, nothing panics or hangs.

#![allow(clippy::restriction, reason = "tests may unwrap and index")]

use scenewalk_actors::tiles::*;
use scenewalk_core::glam::DVec3;
use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::time::Duration;

const TILESET: &str = r#"{"asset": {"version": "1.1"}, "geometricError": 100,
  "root": {"boundingVolume": {"box": [0,0,0, 200,0,0, 0,50,0, 0,0,1]}, "geometricError": 10,
           "refine": "REPLACE", "content": {"uri": "root.glb"}, "children": [
    {"boundingVolume": {"box": [-150,0,0, 50,0,0, 0,50,0, 0,0,1]}, "geometricError": 0, "content": {"uri": "ok.glb"}},
    {"boundingVolume": {"box": [-50,0,0, 50,0,0, 0,50,0, 0,0,1]}, "geometricError": 0, "content": {"uri": "slow.glb"}},
    {"boundingVolume": {"box": [50,0,0, 50,0,0, 0,50,0, 0,0,1]}, "geometricError": 0, "content": {"uri": "fail.glb"}},
    {"boundingVolume": {"box": [150,0,0, 50,0,0, 0,50,0, 0,0,1]}, "geometricError": 0, "content": {"uri": "short.glb"}}]}}"#;

/// Serves the tileset under `/tiles/`; `slow.glb` answers after 3 s, `fail.glb` with
/// 500, `short.glb` declares 100 bytes and sends 10.
fn serve() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let address = listener.local_addr().unwrap();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            std::thread::spawn(move || {
                let mut line = String::new();
                let mut reader = BufReader::new(stream.try_clone().unwrap());
                reader.read_line(&mut line).unwrap();
                loop {
                    let mut header = String::new();
                    if reader.read_line(&mut header).unwrap_or(0) <= 2 {
                        break;
                    }
                }
                let path = line.split_whitespace().nth(1).unwrap_or("").to_owned();
                let ok = |body: &[u8]| {
                    let mut r = format!(
                        "HTTP/1.1 200 OK\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                        body.len()
                    )
                    .into_bytes();
                    r.extend_from_slice(body);
                    r
                };
                let reply = match path.as_str() {
                    "/tiles/tileset.json" => ok(TILESET.as_bytes()),
                    "/tiles/root.glb" | "/tiles/ok.glb" => ok(&[1; 64]),
                    "/tiles/slow.glb" => {
                        std::thread::sleep(Duration::from_secs(3));
                        ok(&[2; 64])
                    }
                    "/tiles/fail.glb" => b"HTTP/1.1 500 Internal Server Error\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".to_vec(),
                    "/tiles/short.glb" => {
                        let mut r = b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\nConnection: close\r\n\r\n".to_vec();
                        r.extend_from_slice(&[3; 10]);
                        r
                    }
                    _ => b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".to_vec(),
                };
                let _ = stream.write_all(&reply);
            });
        }
    });
    format!("http://{address}/tiles")
}

#[test]
fn slow_failing_and_truncated_responses_are_reported_and_the_parent_stays() {
    let base = serve();
    let loader = http_loader(&base, Duration::from_millis(500));
    let options = SelectionOptions {
        threads: 4,
        ..SelectionOptions::default()
    };
    let mut s = TileSelection::open(loader, "tileset.json", options).unwrap();
    let near = TileView {
        position: DVec3::new(0.0, 0.0, 301.0),
        direction: DVec3::NEG_Z,
        up: DVec3::Y,
        fovy: 60f64.to_radians(),
        aspect: 1.0,
        viewport_height: 1080.0,
    };
    let mut failures = Vec::new();
    for _ in 0..6 {
        s.update(&near).unwrap();
        failures.extend(s.failures().to_vec());
        assert!(s.wait_for_loads(Duration::from_secs(10)), "a load hung");
    }
    s.update(&near).unwrap();
    failures.extend(s.failures().to_vec());
    let mut by_uri: Vec<(String, String)> =
        failures.into_iter().map(|f| (f.uri, f.error)).collect();
    by_uri.sort();
    let uris: Vec<&str> = by_uri.iter().map(|(u, _)| u.as_str()).collect();
    assert_eq!(uris, ["fail.glb", "short.glb", "slow.glb"], "{by_uri:?}");
    assert!(
        by_uri[0].1.ends_with("HTTP 500 Internal Server Error"),
        "{}",
        by_uri[0].1
    );
    assert!(by_uri[2].1.contains("timeout"), "{}", by_uri[2].1);
    let root = s.root();
    assert_eq!(
        s.rendered(),
        [root],
        "the root stays shown in place of its children"
    );
    assert_eq!(s.content(root), Some(&[1u8; 64][..]));
}
