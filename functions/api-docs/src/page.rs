//! The API reference for people (`/api/docs`): the OpenAPI document rendered
//! on the server as one HTML page, with no script at all (the site's CSP
//! allows none inline, and a viewer bundle would be a large dependency for
//! one page). Every operation is a `<details>` element under its tag, with
//! its parameters, body, answers and security; every schema is a table of
//! its properties and their rules, linked from where it is used.

use serde_json::{Map, Value};
use std::fmt::Write as _;

/// The text escaped for HTML text and attribute values.
pub fn esc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

/// The operations of one tag: (method, path, operation).
type Tagged<'a> = (String, Vec<(String, String, &'a Value)>);

const METHODS: [&str; 8] = ["get", "put", "post", "delete", "patch", "head", "options", "trace"];

const STYLE: &str = "body{font:15px/1.5 system-ui,sans-serif;margin:0;color:#1f2328;background:#fff}\
main{max-width:1100px;margin:0 auto;padding:16px 24px}\
h1{font-size:26px}h2{font-size:21px;border-bottom:1px solid #d0d7de;padding-bottom:4px;margin-top:32px}\
h3{font-size:17px;margin-top:24px}code,pre{font:13px/1.4 ui-monospace,monospace}\
pre{background:#f6f8fa;padding:8px;overflow-x:auto;white-space:pre-wrap;word-break:break-word}\
details{border:1px solid #d0d7de;border-radius:6px;margin:6px 0;padding:4px 10px}\
details[open]{background:#fbfcfd}summary{cursor:pointer;overflow-wrap:anywhere}\
.m{display:inline-block;min-width:58px;font-weight:600;text-transform:uppercase;font-size:12px}\
.get{color:#0969da}.post{color:#1a7f37}.put,.patch{color:#9a6700}.delete{color:#cf222e}\
table{border-collapse:collapse;width:100%;margin:6px 0}th,td{border:1px solid #d0d7de;padding:3px 6px;text-align:left;vertical-align:top;overflow-wrap:anywhere}\
th{background:#f6f8fa}.st{white-space:nowrap}nav ul{columns:3 180px;padding-left:18px}.rule{color:#57606a;font-size:13px}\
@media (max-width:600px){main{padding:8px}nav ul{columns:1}}";

/// The whole page for `doc` (an OpenAPI 3.1 document as JSON).
pub fn render(doc: &Value) -> String {
    let info = &doc["info"];
    let title = info["title"].as_str().unwrap_or("API");
    let mut by_tag: Vec<Tagged> = Vec::new();
    for (path, item) in doc["paths"].as_object().into_iter().flatten() {
        for method in METHODS {
            let Some(op) = item.get(method) else { continue };
            let tag = op["tags"][0].as_str().unwrap_or("other").to_string();
            let pos = by_tag.iter().position(|(t, _)| *t == tag).unwrap_or_else(|| {
                by_tag.push((tag.clone(), Vec::new()));
                by_tag.len() - 1
            });
            by_tag[pos].1.push((method.to_string(), path.clone(), op));
        }
    }
    by_tag.sort_by(|a, b| a.0.cmp(&b.0));
    let mut h = String::new();
    let _ = write!(
        h,
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">\
         <title>{t} — reference</title><style>{STYLE}</style></head><body><main><h1>{t} <small>{v}</small></h1><p>{d}</p>\
         <p>The machine-readable document: <a href=\"/api/openapi.json\">/api/openapi.json</a> (OpenAPI {o}).</p>",
        t = esc(title),
        v = esc(info["version"].as_str().unwrap_or("")),
        d = esc(info["description"].as_str().unwrap_or("")),
        o = esc(doc["openapi"].as_str().unwrap_or("")),
    );
    security_schemes(&mut h, &doc["components"]["securitySchemes"]);
    h.push_str("<nav><h2>Operations</h2><ul>");
    for (tag, ops) in &by_tag {
        let _ = write!(h, "<li><a href=\"#tag-{t}\">{t}</a> ({n})</li>", t = esc(tag), n = ops.len());
    }
    h.push_str("<li><a href=\"#schemas\">Schemas</a></li></ul></nav>");
    for (tag, ops) in &by_tag {
        let _ = write!(h, "<h2 id=\"tag-{t}\">{t}</h2>", t = esc(tag));
        for (method, path, op) in ops {
            operation(&mut h, method, path, op, doc);
        }
    }
    h.push_str("<h2 id=\"schemas\">Schemas</h2>");
    for (name, schema) in doc["components"]["schemas"].as_object().into_iter().flatten() {
        let _ = write!(h, "<h3 id=\"schema-{n}\">{n}</h3>", n = esc(name));
        schema_block(&mut h, schema);
    }
    h.push_str("</main></body></html>\n");
    h
}

fn security_schemes(h: &mut String, schemes: &Value) {
    let Some(schemes) = schemes.as_object() else { return };
    h.push_str("<h2>Authentication</h2><table><tr><th>Scheme</th><th>How</th></tr>");
    for (name, s) in schemes {
        let how = match s["type"].as_str() {
            Some("http") => format!("HTTP {} ({})", s["scheme"].as_str().unwrap_or(""), s["bearerFormat"].as_str().unwrap_or("")),
            Some("apiKey") => format!("header {}: {}", s["name"].as_str().unwrap_or(""), s["description"].as_str().unwrap_or("")),
            other => other.unwrap_or("").to_string(),
        };
        let _ = write!(h, "<tr><td><code>{}</code></td><td>{}</td></tr>", esc(name), esc(&how));
    }
    h.push_str("</table>");
}

fn operation(h: &mut String, method: &str, path: &str, op: &Value, doc: &Value) {
    let id = op["operationId"].as_str().unwrap_or(path);
    let _ = write!(
        h,
        "<details id=\"op-{id}\"><summary><span class=\"m {method}\">{method}</span> <code>{path}</code> {summary}</summary>",
        id = esc(id),
        path = esc(path),
        summary = esc(op["summary"].as_str().unwrap_or("")),
    );
    if let Some(d) = op["description"].as_str().filter(|d| Some(*d) != op["summary"].as_str()) {
        let _ = write!(h, "<p>{}</p>", esc(d));
    }
    let security: Vec<String> =
        op["security"].as_array().into_iter().flatten().filter_map(|s| s.as_object()).flat_map(|s| s.keys().cloned()).collect();
    let _ = write!(
        h,
        "<p class=\"rule\">operationId <code>{}</code>; {}</p>",
        esc(id),
        if security.is_empty() { "no authentication".to_string() } else { format!("authentication: {}", esc(&security.join(", "))) }
    );
    if let Some(params) = op["parameters"].as_array().filter(|p| !p.is_empty()) {
        h.push_str("<table><tr><th>Parameter</th><th>In</th><th>Required</th><th>Schema</th><th>Description</th></tr>");
        for p in params {
            let _ = write!(
                h,
                "<tr><td><code>{}</code></td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                esc(p["name"].as_str().unwrap_or("")),
                esc(p["in"].as_str().unwrap_or("")),
                if p["required"].as_bool() == Some(true) { "yes" } else { "no" },
                schema_inline(&p["schema"]),
                esc(p["description"].as_str().unwrap_or("")),
            );
        }
        h.push_str("</table>");
    }
    if let Some(content) = op["requestBody"]["content"].as_object() {
        let required = if op["requestBody"]["required"].as_bool() == Some(true) { " (required)" } else { "" };
        for (media, m) in content {
            let _ = write!(h, "<p><b>Body</b>{required} <code>{}</code>: {}</p>", esc(media), schema_inline(&m["schema"]));
            if let Some(example) = m.get("example") {
                let _ = write!(h, "<pre>{}</pre>", esc(&serde_json::to_string_pretty(example).unwrap_or_default()));
            }
        }
    }
    h.push_str("<table><tr><th>Status</th><th>Answer</th><th>Body</th></tr>");
    for (status, r) in op["responses"].as_object().into_iter().flatten() {
        let r = resolve(r, doc);
        let bodies: Vec<String> = r["content"]
            .as_object()
            .into_iter()
            .flatten()
            .map(|(media, m)| format!("<code>{}</code> {}", esc(media), schema_inline(&m["schema"])))
            .collect();
        let _ = write!(
            h,
            "<tr><td class=\"st\">{}</td><td>{}</td><td>{}</td></tr>",
            esc(status),
            esc(r["description"].as_str().unwrap_or("")),
            bodies.join("<br>")
        );
    }
    h.push_str("</table></details>");
}

/// A `$ref` to a shared response, followed once.
fn resolve<'a>(v: &'a Value, doc: &'a Value) -> &'a Value {
    match v["$ref"].as_str().and_then(|r| r.strip_prefix("#/components/responses/")) {
        Some(name) => &doc["components"]["responses"][name],
        None => v,
    }
}

/// One schema as a line of HTML: a link for a reference, else its type
/// and rules.
fn schema_inline(s: &Value) -> String {
    let Some(o) = s.as_object() else { return String::new() };
    if let Some(name) = o.get("$ref").and_then(Value::as_str).and_then(|r| r.strip_prefix("#/components/schemas/")) {
        return format!("<a href=\"#schema-{n}\">{n}</a>", n = esc(name));
    }
    for (key, word) in [("oneOf", "one of"), ("anyOf", "any of"), ("allOf", "all of")] {
        if let Some(items) = o.get(key).and_then(Value::as_array) {
            let parts: Vec<String> = items.iter().map(schema_inline).collect();
            return format!("{word} ({})", parts.join(" | "));
        }
    }
    let mut text = match o.get("type") {
        Some(Value::String(t)) if t == "array" => format!("array of {}", schema_inline(&o["items"])),
        Some(Value::String(t)) => esc(t),
        Some(Value::Array(ts)) => esc(&ts.iter().filter_map(Value::as_str).collect::<Vec<_>>().join(" or ")),
        _ if o.contains_key("properties") => "object".to_string(),
        _ => "any".to_string(),
    };
    if o.contains_key("properties") {
        text.push_str(" {");
        text.push_str(
            &o["properties"]
                .as_object()
                .into_iter()
                .flatten()
                .map(|(k, v)| format!("{}: {}", esc(k), schema_inline(v)))
                .collect::<Vec<_>>()
                .join(", "),
        );
        text.push('}');
    }
    let rules = rules(o);
    if !rules.is_empty() {
        let _ = write!(text, " <span class=\"rule\">{rules}</span>");
    }
    text
}

/// The schema's rules: format, bounds, lengths, pattern, enum, required.
fn rules(o: &Map<String, Value>) -> String {
    let mut r = Vec::new();
    for key in ["format", "minLength", "maxLength", "minimum", "maximum", "exclusiveMinimum", "minItems", "maxItems", "pattern", "default"]
    {
        if let Some(v) = o.get(key) {
            r.push(format!("{key} {}", esc(&compact(v))));
        }
    }
    if let Some(values) = o.get("enum").and_then(Value::as_array) {
        r.push(format!("one of {}", esc(&values.iter().map(compact).collect::<Vec<_>>().join(", "))));
    }
    if let Some(req) = o.get("required").and_then(Value::as_array).filter(|r| !r.is_empty()) {
        r.push(format!("requires {}", esc(&req.iter().filter_map(Value::as_str).collect::<Vec<_>>().join(", "))));
    }
    r.join("; ")
}

fn compact(v: &Value) -> String {
    v.as_str().map(str::to_string).unwrap_or_else(|| v.to_string())
}

/// A component schema: a table of its properties for an object, else its
/// inline form.
fn schema_block(h: &mut String, s: &Value) {
    if let Some(d) = s["description"].as_str() {
        let _ = write!(h, "<p>{}</p>", esc(d));
    }
    let Some(props) = s["properties"].as_object() else {
        let _ = write!(h, "<p>{}</p>", schema_inline(s));
        return;
    };
    let required: Vec<&str> = s["required"].as_array().into_iter().flatten().filter_map(Value::as_str).collect();
    h.push_str("<table><tr><th>Field</th><th>Required</th><th>Schema</th><th>Description</th></tr>");
    for (name, p) in props {
        let _ = write!(
            h,
            "<tr><td><code>{}</code></td><td>{}</td><td>{}</td><td>{}</td></tr>",
            esc(name),
            if required.contains(&name.as_str()) { "yes" } else { "no" },
            schema_inline(p),
            esc(p["description"].as_str().unwrap_or("")),
        );
    }
    h.push_str("</table>");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_escaped() {
        assert_eq!(esc("<a href=\"x\">'&'</a>"), "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
    }

    #[test]
    fn an_operation_shows_its_parameters_body_answers_and_schema_rules() {
        let doc = serde_json::json!({
            "openapi": "3.1.0",
            "info": {"title": "T<1>", "version": "1", "description": "d"},
            "paths": {"/api/x/{id}/": {"post": {
                "tags": ["things"], "operationId": "make_x", "summary": "Makes an x",
                "security": [{"bearer": []}],
                "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "string", "format": "uuid"}}],
                "requestBody": {"required": true, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/NewX"}}}},
                "responses": {"200": {"description": "made"}, "414": {"$ref": "#/components/responses/UriTooLong"}}
            }}},
            "components": {
                "schemas": {"NewX": {"type": "object", "required": ["phone"], "properties": {
                    "phone": {"type": "string", "pattern": "^\\+?[0-9 -]{7,30}$", "maxLength": 30}}}},
                "responses": {"UriTooLong": {"description": "too long <uri>"}},
                "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer", "bearerFormat": "JWT"}}
            }
        });
        let page = render(&doc);
        assert!(page.contains("<title>T&lt;1&gt; — reference</title>"), "{page}");
        assert!(page.contains("id=\"op-make_x\""));
        assert!(page.contains("<code>/api/x/{id}/</code> Makes an x"));
        assert!(page.contains("authentication: bearer"));
        assert!(page.contains("<td><code>id</code></td><td>path</td><td>yes</td><td>string <span class=\"rule\">format uuid</span></td>"));
        assert!(page.contains("<a href=\"#schema-NewX\">NewX</a>"));
        assert!(page.contains("<h3 id=\"schema-NewX\">NewX</h3>"));
        assert!(page.contains("pattern ^\\+?[0-9 -]{7,30}$; ") || page.contains("maxLength 30; pattern ^\\+?[0-9 -]{7,30}$"));
        assert!(page.contains("<td class=\"st\">414</td><td>too long &lt;uri&gt;</td>"), "a shared answer is followed to its description");
        assert!(!page.contains("<script"), "the page runs no script");
    }
}
