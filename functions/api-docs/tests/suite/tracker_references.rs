//! Code, tests and READMEs say the rule, not a tracker's number: the
//! repository has no issue tracker, so a reference to a numbered issue
//! tells a reader nothing. Walks every tracked text file (`git ls-files`).

use std::path::Path;
use std::process::Command;

/// Files a person does not write: lock files name package versions only.
const SKIPPED: &[&str] = &["Cargo.lock", "web/package-lock.json"];

/// Whether `line` points to a numbered issue: the word "issue" or "issues"
/// (any case, not inside another word), then spaces, `#`, `_` or `-`, then a
/// digit.
fn cites_issue(line: &str) -> bool {
    let lower = line.to_lowercase();
    let bytes = lower.as_bytes();
    let word = b"issue";
    let mut from = 0;
    while let Some(at) = lower[from..].find("issue").map(|i| i + from) {
        from = at + word.len();
        if at > 0 && (bytes[at - 1].is_ascii_alphanumeric() || bytes[at - 1] == b'_') {
            continue;
        }
        let mut i = from;
        if bytes.get(i) == Some(&b's') {
            i += 1;
        }
        while matches!(bytes.get(i), Some(b' ' | b'\t' | b'#' | b'_' | b'-')) {
            i += 1;
        }
        if i > from && bytes.get(i).is_some_and(u8::is_ascii_digit) {
            return true;
        }
    }
    false
}

#[test]
fn recognises_issue_references() {
    // Built with concat! so this file itself holds no reference.
    for hit in [
        concat!("(iss", "ue 22)"),
        concat!("Iss", "ue 17: a rule"),
        concat!("iss", "ues 5 and 22 want"),
        concat!("see iss", "ue #3"),
        concat!("fn iss", "ue_14_tabs()"),
        concat!("ISS", "UE 20's 8 MB"),
    ] {
        assert!(cites_issue(hit), "{hit}");
    }
    let misses = [
        concat!("tiss", "ue 5"),
        "an issue with 5 parts",
        "issued 2026",
        "issues",
        concat!("misiss", "ue 3"),
        concat!("reiss", "ue_4"),
        "issue",
    ];
    for miss in misses {
        assert!(!cites_issue(miss), "{miss}");
    }
}

#[test]
fn no_tracked_file_cites_an_issue_number() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let out = Command::new("git").arg("-C").arg(&root).args(["ls-files", "-z"]).output().expect("git runs");
    assert!(out.status.success(), "git ls-files: {}", String::from_utf8_lossy(&out.stderr));
    let files: Vec<String> = String::from_utf8(out.stdout).unwrap().split('\0').filter(|f| !f.is_empty()).map(str::to_owned).collect();
    assert!(files.len() > 100, "git ls-files listed the repository ({} files)", files.len());
    let mut found = Vec::new();
    let mut read = 0;
    for f in files.iter().filter(|f| !SKIPPED.contains(&f.as_str())) {
        // Binary files (images, fonts) and files deleted in the worktree are not text to read.
        let Ok(text) = std::fs::read_to_string(root.join(f)) else { continue };
        read += 1;
        for (n, line) in text.lines().enumerate() {
            if cites_issue(line) {
                found.push(format!("{f}:{}: {}", n + 1, line.trim()));
            }
        }
    }
    assert!(read > 100, "read the tracked text files ({read})");
    assert!(found.is_empty(), "say the rule instead of an issue number:\n{}", found.join("\n"));
}
