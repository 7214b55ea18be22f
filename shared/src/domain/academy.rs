//! Freja Academy (spec §1 "a training academy (video page)", §2 academy
//! routes of every role): lessons grouped by topic, each a video — an
//! embedded player for a YouTube or Vimeo address admin enters, or an MP4
//! uploaded to S3 and played through a presigned URL — with a text; admin
//! creates, orders and publishes them; every user keeps their own progress.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::policy;
use super::{Role, User};
use crate::error::{ApiError, FieldErrors, Msg};

pub const TITLE_MAX_CHARS: usize = 200;
pub const TOPIC_MAX_CHARS: usize = 100;
pub const TEXT_MAX_CHARS: usize = 20_000;
/// Largest uploaded video: 500 MiB (a lesson of some minutes in HD).
pub const VIDEO_MAX_BYTES: i64 = 500 * 1024 * 1024;
/// The one uploaded video type.
pub const VIDEO_CONTENT_TYPE: &str = "video/mp4";
/// The only hosts an embedded player may come from (the CSP's `frame-src`
/// names the same two).
pub const EMBED_HOSTS: [&str; 2] = ["https://www.youtube-nocookie.com/embed/", "https://player.vimeo.com/video/"];

/// Which areas a lesson is shown in (none = every area).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Audience {
    Lawyer,
    Sales,
    /// Customers and their contacts.
    Customer,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Lesson {
    pub id: String,
    pub topic: String,
    pub title: String,
    /// Markdown.
    pub text: String,
    /// The embedded player's address (youtube-nocookie or player.vimeo).
    pub video_url: Option<String>,
    /// An uploaded MP4 (`academy/<lesson id>/<uuid>.mp4`).
    pub video_key: Option<String>,
    /// Position in the academy (topics in the order of their first lesson).
    pub position: u32,
    pub published: bool,
    #[serde(default)]
    pub audience: Vec<Audience>,
    /// The English version (spec: every text users read in the reader's
    /// language); none when the lesson is written in Swedish only, and then
    /// English readers see the Swedish text marked as such.
    #[serde(default)]
    pub en: Option<LessonEnglish>,
    #[schema(value_type = String, format = DateTime)]
    pub created_at: DateTime<Utc>,
    #[schema(value_type = String, format = DateTime)]
    pub updated_at: DateTime<Utc>,
}

/// A lesson's English version: topic and title, and its text (Markdown).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct LessonEnglish {
    #[serde(default)]
    #[schema(required = true, min_length = 1, max_length = 100)]
    pub topic: String,
    #[serde(default)]
    #[schema(required = true, min_length = 1, max_length = 200)]
    pub title: String,
    #[serde(default)]
    #[schema(max_length = 20000)]
    pub text: String,
}

/// A user's progress in one lesson.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Progress {
    pub lesson_id: String,
    pub watched: bool,
    pub completed: bool,
    #[schema(value_type = Option<String>, format = DateTime)]
    pub updated_at: Option<DateTime<Utc>>,
}

/// The audience a user belongs to; admin sees everything (None).
pub fn audience_of(user: &User) -> Option<Audience> {
    if policy::is(user, Role::Lawyer) {
        Some(Audience::Lawyer)
    } else if policy::is(user, Role::SalesPerson) {
        Some(Audience::Sales)
    } else if policy::is_customer_side(user) {
        Some(Audience::Customer)
    } else {
        None
    }
}

/// Whether `user` sees `lesson` in their academy: admin every lesson;
/// everyone else published lessons meant for their area.
pub fn may_see(user: &User, lesson: &Lesson) -> bool {
    policy::is(user, Role::Admin)
        || (lesson.published && audience_of(user).is_some_and(|a| lesson.audience.is_empty() || lesson.audience.contains(&a)))
}

/// The embed address of a YouTube or Vimeo link, or `None` for anything
/// else (the CSP allows only these two players).
pub fn embed_url(raw: &str) -> Option<String> {
    let url = raw.trim();
    let rest = url.strip_prefix("https://").or_else(|| url.strip_prefix("http://"))?;
    let rest = rest.strip_prefix("www.").unwrap_or(rest);
    let rest = rest.strip_prefix("m.").unwrap_or(rest);
    let (host, path) = rest.split_once('/').unwrap_or((rest, ""));
    let id_ok = |id: &str| (6..=20).contains(&id.len()) && id.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    let digits = |id: &str| !id.is_empty() && id.len() <= 12 && id.chars().all(|c| c.is_ascii_digit());
    let yt = |id: &str| id_ok(id).then(|| format!("{}{id}", EMBED_HOSTS[0]));
    let vimeo = |id: &str| digits(id).then(|| format!("{}{id}", EMBED_HOSTS[1]));
    let first = |p: &str| p.split(['?', '&', '#', '/']).next().unwrap_or("").to_string();
    match host {
        "youtube.com" => {
            if let Some(q) = path.strip_prefix("watch?") {
                let v = q.split('&').find_map(|kv| kv.strip_prefix("v="))?;
                yt(&first(v))
            } else if let Some(id) = path.strip_prefix("embed/").or_else(|| path.strip_prefix("shorts/")) {
                yt(&first(id))
            } else {
                None
            }
        }
        "youtu.be" => yt(&first(path)),
        "youtube-nocookie.com" => yt(&first(path.strip_prefix("embed/")?)),
        "vimeo.com" => vimeo(&first(path)),
        "player.vimeo.com" => vimeo(&first(path.strip_prefix("video/")?)),
        _ => None,
    }
}

/// What admin sends to create or change a lesson.
#[derive(Clone, Debug, Default, Deserialize, ToSchema)]
#[schema(example = json!({"topic": "Avtal", "title": "Grunder i avtalsrätt", "text": "Ett avtal binder parterna …", "en": {"topic": "Contracts", "title": "Contract law basics", "text": "A contract binds the parties …"}, "video_url": "", "published": true, "audience": ["customer"]}))]
pub struct LessonForm {
    #[serde(default)]
    #[schema(required = true, min_length = 1, max_length = 100)]
    pub topic: String,
    #[serde(default)]
    #[schema(required = true, min_length = 1, max_length = 200)]
    pub title: String,
    #[serde(default)]
    #[schema(max_length = 20000)]
    pub text: String,
    /// A YouTube or Vimeo address; empty for none.
    #[serde(default)]
    pub video_url: String,
    #[serde(default)]
    pub published: bool,
    #[serde(default)]
    pub audience: Vec<Audience>,
    /// Position; none = after the last lesson (new) or unchanged.
    pub position: Option<u32>,
    /// The English version; none for a lesson written in Swedish only.
    #[serde(default)]
    pub en: Option<LessonEnglish>,
}

/// The checked form: topic and title required, text bounded, a video
/// address only from the two players.
#[derive(Debug)]
pub struct CheckedLesson {
    pub topic: String,
    pub title: String,
    pub text: String,
    pub video_url: Option<String>,
    pub en: Option<LessonEnglish>,
}

pub fn validate(f: &LessonForm) -> Result<CheckedLesson, ApiError> {
    let mut e = FieldErrors::new();
    let bounded = |e: &mut FieldErrors, field: &str, v: &str, max: usize, required: bool| {
        if required && v.trim().is_empty() {
            e.add(field, Msg::Required);
        } else if v.trim().chars().count() > max {
            e.add(field, Msg::TooLong);
        }
    };
    bounded(&mut e, "topic", &f.topic, TOPIC_MAX_CHARS, true);
    bounded(&mut e, "title", &f.title, TITLE_MAX_CHARS, true);
    bounded(&mut e, "text", &f.text, TEXT_MAX_CHARS, false);
    // An English version is whole enough to show on its own: topic and title.
    if let Some(en) = &f.en {
        bounded(&mut e, "en.topic", &en.topic, TOPIC_MAX_CHARS, true);
        bounded(&mut e, "en.title", &en.title, TITLE_MAX_CHARS, true);
        bounded(&mut e, "en.text", &en.text, TEXT_MAX_CHARS, false);
    }
    let video_url = if f.video_url.trim().is_empty() {
        None
    } else {
        let u = embed_url(&f.video_url);
        if u.is_none() {
            e.add("video_url", Msg::VideoUrlNotAllowed);
        }
        u
    };
    e.check()?;
    Ok(CheckedLesson {
        topic: f.topic.trim().into(),
        title: f.title.trim().into(),
        text: f.text.trim().into(),
        video_url,
        en: f.en.as_ref().map(|en| LessonEnglish {
            topic: en.topic.trim().into(),
            title: en.title.trim().into(),
            text: en.text.trim().into(),
        }),
    })
}

/// An uploaded video must be an MP4: `ftyp` at byte 4; 1 byte to [`VIDEO_MAX_BYTES`].
pub fn check_video(size: Option<i64>, head: &[u8]) -> Result<(), Msg> {
    match size {
        None => Err(Msg::DocumentNotUploaded),
        Some(0) => Err(Msg::DocumentEmpty),
        Some(n) if n > VIDEO_MAX_BYTES => Err(Msg::DocumentTooLarge),
        Some(_) if head.get(4..8) != Some(b"ftyp") => Err(Msg::DocumentTypeNotAllowed),
        Some(_) => Ok(()),
    }
}

/// A video object's key for `lesson_id`.
pub fn video_key(lesson_id: &str, id: &uuid::Uuid) -> String {
    format!("academy/{lesson_id}/{}.mp4", id.simple())
}

/// Whether `key` is a video key issued for `lesson_id`.
pub fn is_video_key(lesson_id: &str, key: &str) -> bool {
    key.strip_prefix(&format!("academy/{lesson_id}/"))
        .and_then(|r| r.strip_suffix(".mp4"))
        .is_some_and(|id| id.len() == 32 && id.chars().all(|c| c.is_ascii_hexdigit()))
}

/// Lessons in academy order: by position, then by creation.
pub fn sort(lessons: &mut [Lesson]) {
    lessons.sort_by_key(|l| (l.position, l.created_at));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::user::tests_support::sample;

    #[test]
    fn only_youtube_and_vimeo_become_embeds() {
        let yt = "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ";
        assert_eq!(embed_url("https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=3").as_deref(), Some(yt));
        assert_eq!(embed_url("https://youtu.be/dQw4w9WgXcQ").as_deref(), Some(yt));
        assert_eq!(embed_url("https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ").as_deref(), Some(yt));
        assert_eq!(embed_url("https://vimeo.com/76979871").as_deref(), Some("https://player.vimeo.com/video/76979871"));
        assert_eq!(embed_url("https://player.vimeo.com/video/76979871?h=1").as_deref(), Some("https://player.vimeo.com/video/76979871"));
        for bad in
            ["https://evil.example/embed/x", "javascript:alert(1)", "https://youtube.com/watch?v=<script>", "https://vimeo.com/abc", ""]
        {
            assert_eq!(embed_url(bad), None, "{bad}");
        }
    }

    #[test]
    fn lessons_show_by_audience_and_publication() {
        let now = Utc::now();
        let mut l = Lesson {
            id: "l1".into(),
            topic: "Cases".into(),
            title: "T".into(),
            text: String::new(),
            video_url: None,
            video_key: None,
            position: 1,
            published: false,
            audience: vec![Audience::Lawyer],
            en: None,
            created_at: now,
            updated_at: now,
        };
        let mut admin = sample(None);
        admin.is_staff = true;
        assert!(may_see(&admin, &l));
        assert!(!may_see(&sample(Some(1)), &l), "unpublished");
        l.published = true;
        assert!(may_see(&sample(Some(1)), &l));
        assert!(!may_see(&sample(Some(3)), &l));
        l.audience.clear();
        assert!(may_see(&sample(Some(4)), &l) && may_see(&sample(Some(2)), &l));
    }

    #[test]
    fn form_and_video_checks() {
        let f = LessonForm { topic: "".into(), title: "x".into(), video_url: "https://example.com/v".into(), ..Default::default() };
        let e = validate(&f).unwrap_err().fields();
        assert_eq!((e.get("topic"), e.get("video_url")), (&[Msg::Required][..], &[Msg::VideoUrlNotAllowed][..]));
        assert!(e.get("en.title").is_empty(), "no English version asked for: {e:?}");
        // An English version needs its topic and title.
        let text_only = LessonEnglish { text: "A contract …".into(), ..Default::default() };
        let f = LessonForm { topic: "Avtal".into(), title: "Grunder".into(), en: Some(text_only), ..Default::default() };
        let e = validate(&f).unwrap_err().fields();
        assert_eq!((e.get("en.topic"), e.get("en.title")), (&[Msg::Required][..], &[Msg::Required][..]));
        let en = LessonEnglish { topic: " Contracts ".into(), title: "Basics".into(), text: String::new() };
        let f = LessonForm { topic: "Avtal".into(), title: "Grunder".into(), en: Some(en), ..Default::default() };
        let c = validate(&f).unwrap().en.unwrap();
        assert_eq!((c.topic.as_str(), c.title.as_str(), c.text.as_str()), ("Contracts", "Basics", ""));
        assert_eq!(check_video(Some(10), b"\0\0\0\x18ftypmp42"), Ok(()));
        assert_eq!(check_video(Some(10), b"%PDF-1.7"), Err(Msg::DocumentTypeNotAllowed));
        assert_eq!(check_video(None, b""), Err(Msg::DocumentNotUploaded));
        let id = uuid::Uuid::new_v4();
        assert!(is_video_key("l1", &video_key("l1", &id)));
        assert!(!is_video_key("l2", &video_key("l1", &id)) && !is_video_key("l1", "academy/l1/../x.mp4"));
    }
}
