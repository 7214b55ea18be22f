//! Mail when something happens (a new message, a case accepted, closed or
//! reopened, hours logged, a subscription about to end) to the users the
//! event's notification goes to.
//!
//! Each mail is an outbox item written in the event's own transaction, with
//! its notification ([`crate::store::outbox`]), sent after the commit by
//! [`crate::services::outbox::send_all_after_commit`]: never lost (a stop
//! after the commit, or SES refusing it, leaves it to the scheduled job's
//! sweep) and never doubled (a
//! retried request commits nothing twice; an item is marked sent once).
//! Batched: at most one mail per case (or subscription) and recipient in
//! 15 minutes ([`crate::store::event_mail::WINDOW_SECS`]); the in-app
//! notifications keep the rest. Written in the reader's language, and only
//! to readers who have not turned it off (profile page, or the signed
//! unsubscribe link every mail carries).

use std::collections::HashSet;

use chrono::Utc;
use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;

use crate::domain::notification::{Draft, Verb};
use crate::domain::User;
use crate::error::{ApiError, Msg};
use crate::services::Context;
pub use crate::store::event_mail::MailPrefs;
use crate::store::outbox::Letter;
use crate::store::tx::Tx;

/// Whether an event of `verb` is mailed.
pub fn mailed(verb: Verb) -> bool {
    matches!(
        verb,
        Verb::MessageReceived | Verb::CaseAccepted | Verb::CaseClosed | Verb::CaseReopened | Verb::HoursLogged | Verb::SubscriptionExpiring
    )
}

/// Items one mail adds to a transaction (its outbox item and its window).
pub const ITEMS_PER_MAIL: usize = 2;

/// What one transaction mails: the outbox items to send after its commit,
/// and the (reader, topic) pairs already mailed in it.
#[derive(Debug, Default)]
pub struct Mails {
    pub outbox: Vec<String>,
    taken: HashSet<(String, String)>,
}

/// Adds the mails of `draft` to `readers` to `tx` (about `topic`: a case or
/// a subscription row), leaving `reserve` items of room. Readers who turned
/// mail off, are inactive, or were mailed about `topic` in the window get
/// none.
pub async fn queue(
    ctx: &Context,
    tx: &mut Tx,
    mails: &mut Mails,
    draft: &Draft,
    topic: &str,
    readers: &[String],
    reserve: usize,
) -> Result<(), ApiError> {
    if !mailed(draft.verb) {
        return Ok(());
    }
    let now = Utc::now();
    for reader in readers {
        if tx.room() < ITEMS_PER_MAIL + reserve {
            break;
        }
        if mails.taken.contains(&(reader.clone(), topic.to_string())) {
            continue;
        }
        let prefs = ctx.store.mail_prefs(reader).await?;
        if !prefs.on {
            continue;
        }
        let Some(user) = ctx.store.get_user(reader).await?.filter(|u| u.active) else { continue };
        if ctx.store.mail_window_open(reader, topic, now).await? {
            continue;
        }
        let token = unsubscribe_token(&ctx.config.jwt_secret, reader);
        let letter = letter(&ctx.config.web_origin, &user, &prefs, draft, &token);
        mails.outbox.push(ctx.store.add_outbox_letter(tx, crate::store::outbox::EVENT, reader, &token, &letter, now)?);
        ctx.store.add_mail_window(tx, reader, topic, now)?;
        mails.taken.insert((reader.clone(), topic.to_string()));
    }
    Ok(())
}

fn mac(secret: &str, uid: &str) -> Hmac<Sha256> {
    let mut m = <Hmac<Sha256> as KeyInit>::new_from_slice(secret.as_bytes()).expect("any key length");
    m.update(b"mail-unsubscribe\n");
    m.update(uid.as_bytes());
    m
}

/// The unsubscribe link's token of `uid`: the uid and its HMAC, so the link
/// works without signing in and cannot be made for another user.
pub fn unsubscribe_token(secret: &str, uid: &str) -> String {
    let tag: String = mac(secret, uid).finalize().into_bytes().iter().map(|b| format!("{b:02x}")).collect();
    format!("{uid}.{tag}")
}

/// The user a token names, if its HMAC is right (compared in constant time).
pub fn token_user(secret: &str, token: &str) -> Option<String> {
    let (uid, tag) = token.trim().rsplit_once('.')?;
    if uid.is_empty() || uid.len() > 100 || tag.len() != 64 {
        return None;
    }
    let bytes: Vec<u8> = (0..32).map(|i| u8::from_str_radix(tag.get(2 * i..2 * i + 2)?, 16).ok()).collect::<Option<_>>()?;
    mac(secret, uid).verify_slice(&bytes).ok()?;
    Some(uid.to_string())
}

/// Turns mail off for the user `token` names (the unsubscribe link; no
/// sign-in). 400 `link_invalid` when it is not a real link.
pub async fn unsubscribe(ctx: &Context, token: &str) -> Result<MailPrefs, ApiError> {
    let uid = token_user(&ctx.config.jwt_secret, token).ok_or_else(|| ApiError::bad(Msg::LinkInvalid))?;
    ctx.store.get_user(&uid).await?.ok_or_else(|| ApiError::bad(Msg::LinkInvalid))?;
    let prefs = MailPrefs { on: false, ..ctx.store.mail_prefs(&uid).await? };
    ctx.store.put_mail_prefs(&uid, &prefs).await?;
    Ok(prefs)
}

/// The signed-in user's setting.
pub async fn prefs(ctx: &Context, user: &User) -> Result<MailPrefs, ApiError> {
    ctx.store.mail_prefs(&user.uid).await
}

/// Saves the signed-in user's setting; `language` is `sv` or `en`.
pub async fn save(ctx: &Context, user: &User, on: bool, language: &str) -> Result<MailPrefs, ApiError> {
    let language = match language.trim() {
        "sv" | "" => "sv",
        "en" => "en",
        _ => return Err(ApiError::field("language", Msg::Invalid)),
    };
    let prefs = MailPrefs { on, language: language.into() };
    ctx.store.put_mail_prefs(&user.uid, &prefs).await?;
    Ok(prefs)
}

/// The mail of `draft` to `user`, in the language of `prefs`.
pub fn letter(origin: &str, user: &User, prefs: &MailPrefs, draft: &Draft, token: &str) -> Letter {
    let en = prefs.language == "en";
    let p = &draft.params;
    let case = p.case_number.clone().unwrap_or_default();
    let subject_of_case = p.subject.clone().map(|s| format!(" ({s})")).unwrap_or_default();
    let actor = p.actor.clone().unwrap_or_default();
    let (subject, line) = match (draft.verb, en) {
        (Verb::MessageReceived, false) => (
            format!("Nytt meddelande i ärende {case}"),
            format!("{actor} har skrivit i ärende {case}{subject_of_case}:\n\n{}", p.excerpt.clone().unwrap_or_default()),
        ),
        (Verb::MessageReceived, true) => (
            format!("New message in case {case}"),
            format!("{actor} wrote in case {case}{subject_of_case}:\n\n{}", p.excerpt.clone().unwrap_or_default()),
        ),
        (Verb::CaseAccepted, false) => {
            (format!("Ärende {case} har accepterats"), format!("{actor} har tagit ärende {case}{subject_of_case}."))
        }
        (Verb::CaseAccepted, true) => (format!("Case {case} was accepted"), format!("{actor} took case {case}{subject_of_case}.")),
        (Verb::CaseClosed, false) => (format!("Ärende {case} har stängts"), format!("Ärende {case}{subject_of_case} har stängts.")),
        (Verb::CaseClosed, true) => (format!("Case {case} was closed"), format!("Case {case}{subject_of_case} was closed.")),
        (Verb::CaseReopened, false) => {
            (format!("Ärende {case} har öppnats igen"), format!("Ärende {case}{subject_of_case} har öppnats igen."))
        }
        (Verb::CaseReopened, true) => (format!("Case {case} was reopened"), format!("Case {case}{subject_of_case} was reopened.")),
        (Verb::HoursLogged, false) => {
            (format!("Timmar registrerade i ärende {case}"), format!("{actor} har registrerat timmar i ärende {case}{subject_of_case}."))
        }
        (Verb::HoursLogged, true) => {
            (format!("Hours logged in case {case}"), format!("{actor} logged hours in case {case}{subject_of_case}."))
        }
        (_, false) => {
            let service = p.service.clone().unwrap_or_default();
            (
                format!("Ditt abonnemang {service} löper snart ut"),
                format!("Abonnemanget {service} löper ut {}.", p.date.clone().unwrap_or_default()),
            )
        }
        (_, true) => {
            let service = p.service.clone().unwrap_or_default();
            (
                format!("Your subscription {service} ends soon"),
                format!("The subscription {service} ends on {}.", p.date.clone().unwrap_or_default()),
            )
        }
    };
    let origin = origin.trim_end_matches('/');
    let unsubscribe = format!("{origin}/unsubscribe?token={token}");
    let body = if en {
        format!(
            "Hello {name},\n\n{line}\n\nSign in to see more: {origin}/login\n\nYou get at most one such mail per case every 15 minutes. To stop these mails, open this link (or turn them off on your profile page):\n{unsubscribe}\n",
            name = user.first_name
        )
    } else {
        format!(
            "Hej {name},\n\n{line}\n\nLogga in för att se mer: {origin}/login\n\nDu får högst ett sådant mejl per ärende var 15:e minut. Vill du inte ha dessa mejl, öppna länken (eller stäng av dem på din profilsida):\n{unsubscribe}\n",
            name = user.first_name
        )
    };
    Letter { to: user.email.clone(), subject, body }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unsubscribe_token_names_its_user_and_no_other() {
        let t = unsubscribe_token("secret", "u1");
        assert_eq!(token_user("secret", &t).as_deref(), Some("u1"));
        assert_eq!(token_user("other secret", &t), None);
        let forged = t.replacen("u1.", "u2.", 1);
        assert_eq!(token_user("secret", &forged), None);
        assert_eq!(token_user("secret", "u1.zz"), None);
        assert_eq!(token_user("secret", ""), None);
        assert_eq!(token_user("secret", &format!("{t}0")), None);
    }

    #[test]
    fn only_the_events_users_expect_a_mail_of_are_mailed() {
        assert!(mailed(Verb::MessageReceived));
        assert!(mailed(Verb::CaseClosed));
        assert!(mailed(Verb::SubscriptionExpiring));
        assert!(!mailed(Verb::CasePublished));
        assert!(!mailed(Verb::DocumentAdded));
    }
}
