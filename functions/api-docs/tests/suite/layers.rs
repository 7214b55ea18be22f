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

/// The non-test code of a Rust file, comments left out: the unit tests at a
/// file's end build users of every role.
fn code_lines(path: &Path) -> Vec<(usize, String)> {
    let text = std::fs::read_to_string(path).unwrap();
    let code = text.split("#[cfg(test)]").next().unwrap_or("");
    code.lines().enumerate().map(|(n, l)| (n + 1, l.split("//").next().unwrap_or("").to_string())).collect()
}

/// Who may do what is answered in one place: only `shared::domain::policy`
/// reads a user's role; everything else asks it (`policy::may`,
/// `policy::is`, the case and contact rules). Writing the role down (the
/// audit record, the user item's index key, the log's caller) decides
/// nothing and is allowed.
#[test]
fn only_the_policy_reads_a_users_role() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut files = Vec::new();
    rust_files(&root.join("shared/src"), &mut files);
    rust_files(&root.join("infra/local-gateway/src"), &mut files);
    for krate in std::fs::read_dir(root.join("functions")).unwrap().flatten() {
        if krate.path().join("src").is_dir() {
            rust_files(&krate.path().join("src"), &mut files);
        }
    }
    let policy = root.join("shared/src/domain/policy");
    let mut found = Vec::new();
    let mut read_in_policy = 0;
    for f in &files {
        let in_policy = f.starts_with(&policy);
        for (n, code) in code_lines(f) {
            if !code.contains(".role()") {
                continue;
            }
            let written_down = code.contains(".role().map(|r| r.as_str()") || code.contains("set_caller(");
            if in_policy {
                read_in_policy += 1;
            } else if !written_down {
                found.push(format!("{}:{n}: {}", f.strip_prefix(&root).unwrap_or(f).display(), code.trim()));
            }
        }
    }
    assert!(read_in_policy > 10, "the policy's own rules read the role ({read_in_policy} lines found)");
    assert!(found.is_empty(), "role checks outside shared::domain::policy (ask the policy instead):\n{}", found.join("\n"));
}
