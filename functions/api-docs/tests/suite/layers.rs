//! The layers hold: function crates are routes, parsing and one service call.
//! None of them reaches the table or an AWS SDK itself, or decides who may
//! act by matching roles (that is `shared::domain::policy`).

use std::path::{Path, PathBuf};

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let p = entry.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

#[test]
fn function_crates_call_services_only() {
    let functions = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = Vec::new();
    for krate in std::fs::read_dir(&functions).unwrap().flatten() {
        let src = krate.path().join("src");
        if src.is_dir() {
            rust_files(&src, &mut files);
        }
    }
    assert!(files.len() > 10, "found the function crates' sources");
    let forbidden = ["shared::store", "aws_sdk_", ".store.", ".role()"];
    let mut found = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        for (n, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            for bad in forbidden {
                if code.contains(bad) {
                    found.push(format!("{}:{}: {bad}: {}", f.display(), n + 1, line.trim()));
                }
            }
        }
    }
    assert!(found.is_empty(), "function crates must go through shared::services:\n{}", found.join("\n"));
}
