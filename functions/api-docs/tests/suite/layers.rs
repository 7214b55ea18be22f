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

/// A Rust source tree as modules: path segments → file, and each file's
/// module path (`a/b.rs` and `a/b/mod.rs` are `a::b`; `lib.rs`/`main.rs` the root).
struct Modules {
    files: Vec<(Vec<String>, PathBuf)>,
}

impl Modules {
    fn of(src: &Path) -> Modules {
        let mut paths = Vec::new();
        rust_files(src, &mut paths);
        let files = paths
            .into_iter()
            .filter(|p| !p.components().any(|c| c.as_os_str() == "bin"))
            .map(|p| {
                let rel = p.strip_prefix(src).unwrap().with_extension("");
                let mut segs: Vec<String> = rel.iter().map(|s| s.to_string_lossy().into_owned()).collect();
                if matches!(segs.last().map(String::as_str), Some("mod" | "lib" | "main")) {
                    segs.pop();
                }
                (segs, p)
            })
            .collect();
        Modules { files }
    }

    fn is_module(&self, segs: &[String]) -> bool {
        self.files.iter().any(|(m, _)| m == segs)
    }

    /// Whether the file of `segs` is a directory's (`mod.rs`/`lib.rs`): its
    /// `pub use` lines are re-exports, not imports.
    fn is_dir_module(&self, segs: &[String]) -> bool {
        self.files.iter().any(|(m, p)| m == segs && p.file_stem().is_some_and(|s| s == "mod" || s == "lib" || s == "main"))
    }
}

/// Every `crate::…`, `super::…` and `self::…` path of `code`, with `use`
/// groups (`use super::{a, b::C}`) expanded.
fn paths_in(code: &str) -> Vec<Vec<String>> {
    fn expand(prefix: &str, tree: &str, out: &mut Vec<String>) {
        let tree = tree.trim();
        if let Some(open) = tree.find('{') {
            let head = format!("{prefix}{}", &tree[..open]);
            let inner = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
            let (mut depth, mut start) = (0, 0);
            for (i, ch) in inner.char_indices() {
                match ch {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        expand(&head, &inner[start..i], out);
                        start = i + 1;
                    }
                    _ => {}
                }
            }
            expand(&head, &inner[start..], out);
        } else if !tree.is_empty() {
            out.push(format!("{prefix}{tree}"));
        }
    }
    let mut raw = Vec::new();
    // `use` statements (possibly over several lines), then paths written inline.
    for stmt in code.split(';') {
        if let Some(at) = stmt.find("use ") {
            let before = &stmt[..at];
            if before.trim().is_empty() || before.trim_end().ends_with("pub") || before.trim_end().ends_with(')') {
                expand("", &stmt[at + 4..], &mut raw);
            }
        }
    }
    let bytes = code.as_bytes();
    for start in ["crate::", "super::", "self::"] {
        let mut from = 0;
        while let Some(i) = code[from..].find(start) {
            let at = from + i;
            from = at + start.len();
            if at > 0 && (bytes[at - 1].is_ascii_alphanumeric() || bytes[at - 1] == b'_' || bytes[at - 1] == b':') {
                continue;
            }
            let end = code[at..].find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':')).map_or(code.len(), |e| at + e);
            raw.push(code[at..end].to_string());
        }
    }
    raw.iter()
        .map(|p| {
            p.split(" as ").next().unwrap_or("").split("::").map(|s| s.trim().to_string()).filter(|s| !s.is_empty() && s != "*").collect()
        })
        .filter(|p: &Vec<String>| matches!(p.first().map(String::as_str), Some("crate" | "super" | "self")))
        .collect()
}

/// The import circles among one source tree's files (each circle as its files).
fn circles(src: &Path) -> Vec<Vec<String>> {
    let modules = Modules::of(src);
    // Directory modules' re-exports: (module, name) → the module it comes from.
    let mut reexports = std::collections::HashMap::new();
    let mut edges: std::collections::BTreeMap<Vec<String>, std::collections::BTreeSet<Vec<String>>> = Default::default();
    let code_of = |p: &Path| {
        let text = std::fs::read_to_string(p).unwrap();
        // The unit tests at a file's end import their own file's parent.
        let text = text.split("#[cfg(test)]").next().unwrap_or("").to_string();
        text.lines().map(|l| l.split("//").next().unwrap_or("")).collect::<Vec<_>>().join("\n")
    };
    for (segs, file) in &modules.files {
        if !modules.is_dir_module(segs) {
            continue;
        }
        for stmt in code_of(file).split(';').filter(|s| s.trim_start().starts_with("pub use ")) {
            for path in paths_in(&stmt.replacen("pub use ", "use self::", 1)) {
                let target: Vec<String> = segs.iter().cloned().chain(path[1..path.len() - 1].iter().cloned()).collect();
                if let Some(name) = path.last() {
                    reexports.insert((segs.clone(), name.clone()), target);
                }
            }
        }
    }
    for (segs, file) in &modules.files {
        let code = code_of(file);
        let own: String = if modules.is_dir_module(segs) {
            code.split(';').filter(|s| !s.trim_start().starts_with("pub use ")).collect::<Vec<_>>().join(";")
        } else {
            code
        };
        let parent: Vec<String> = if modules.is_dir_module(segs) || segs.is_empty() {
            segs.split_last().map(|(_, p)| p.to_vec()).unwrap_or_default()
        } else {
            segs[..segs.len() - 1].to_vec()
        };
        for path in paths_in(&own) {
            let mut at: Vec<String> = match path[0].as_str() {
                "crate" => vec![],
                "super" => parent.clone(),
                _ => segs.clone(),
            };
            let mut rest = path[1..].iter().peekable();
            while let Some(seg) = rest.peek() {
                if seg.as_str() == "super" {
                    at.pop();
                    rest.next();
                    continue;
                }
                let mut next = at.clone();
                next.push((*seg).clone());
                if modules.is_module(&next) {
                    at = next;
                    rest.next();
                } else {
                    if let Some(from) = reexports.get(&(at.clone(), (*seg).clone())) {
                        at = from.clone();
                    }
                    break;
                }
            }
            if &at != segs && modules.is_module(&at) {
                edges.entry(segs.clone()).or_default().insert(at);
            }
        }
    }
    // Strongly connected components with more than one file (Tarjan).
    struct T<'a> {
        edges: &'a std::collections::BTreeMap<Vec<String>, std::collections::BTreeSet<Vec<String>>>,
        index: std::collections::HashMap<Vec<String>, (usize, usize)>,
        stack: Vec<Vec<String>>,
        out: Vec<Vec<String>>,
    }
    fn visit(t: &mut T, v: &Vec<String>) {
        let i = t.index.len();
        t.index.insert(v.clone(), (i, i));
        t.stack.push(v.clone());
        for w in t.edges.get(v).cloned().unwrap_or_default() {
            if !t.index.contains_key(&w) {
                visit(t, &w);
                let low = t.index[v].1.min(t.index[&w].1);
                t.index.get_mut(v).unwrap().1 = low;
            } else if t.stack.contains(&w) {
                let low = t.index[v].1.min(t.index[&w].0);
                t.index.get_mut(v).unwrap().1 = low;
            }
        }
        if t.index[v].0 == t.index[v].1 {
            let mut scc = Vec::new();
            while let Some(w) = t.stack.pop() {
                let done = &w == v;
                scc.push(w.join("::"));
                if done {
                    break;
                }
            }
            if scc.len() > 1 {
                scc.sort();
                t.out.push(scc);
            }
        }
    }
    let mut t = T { edges: &edges, index: Default::default(), stack: vec![], out: vec![] };
    for (segs, _) in &modules.files {
        if !t.index.contains_key(segs) {
            visit(&mut t, segs);
        }
    }
    t.out
}

#[test]
fn no_import_circles_in_any_rust_crate() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut sources = vec![root.join("shared/src"), root.join("infra/local-gateway/src")];
    for krate in std::fs::read_dir(root.join("functions")).unwrap().flatten() {
        sources.push(krate.path().join("src"));
    }
    let mut found = Vec::new();
    for src in sources.iter().filter(|s| s.is_dir()) {
        for circle in circles(src) {
            found.push(format!("{}: {}", src.strip_prefix(&root).unwrap_or(src).display(), circle.join(" ↔ ")));
        }
    }
    assert!(found.is_empty(), "modules that import each other (move what both need into a module of its own):\n{}", found.join("\n"));
}

#[test]
fn the_circle_check_sees_a_circle() {
    let dir = std::env::temp_dir().join(format!("circle-check-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("domain")).unwrap();
    std::fs::write(dir.join("lib.rs"), "pub mod domain;\n").unwrap();
    std::fs::write(dir.join("domain/mod.rs"), "pub mod a;\npub mod b;\npub mod c;\npub use c::Shared;\n").unwrap();
    std::fs::write(dir.join("domain/a.rs"), "use super::b::{self, Thing};\nuse super::Shared;\npub struct A;\n").unwrap();
    std::fs::write(dir.join("domain/b.rs"), "pub struct Thing;\nfn f() -> crate::domain::a::A { crate::domain::a::A }\n").unwrap();
    std::fs::write(dir.join("domain/c.rs"), "pub struct Shared;\nuse super::a::A;\n#[cfg(test)]\nmod tests { use super::*; }\n").unwrap();
    let found = circles(&dir);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(found, vec![vec!["domain::a".to_string(), "domain::b".to_string(), "domain::c".to_string()]]);
}
