//! Two-factor sign-in, refresh-token families, logout, rate limits, password
//! change and recovery — against the local stand-in, each test on its own table.

use crate::common;

use axum::http::{Method, StatusCode};
use axum::Router;
use common::{login, post, s, PASSWORD};
use serde_json::json;
use shared::api::AppState;
use shared::domain::sign_in;
use shared::domain::Role;
use shared::services::credentials::sessions::{self, LoginOutcome};
use shared::store::rate_limit::{LOGIN_PER_ADDRESS, LOGIN_PER_PAIR};
use shared::testkit;

/// The identity routes and an active customer account with `email`.
async fn setup(email: &str) -> (AppState, Router) {
    let (state, router) = common::setup().await;
    testkit::account(&state, email, PASSWORD, Role::Customer).await;
    (state, router)
}

async fn profile_status(router: &Router, access: &str) -> StatusCode {
    testkit::call(router, Method::GET, "/api/profile/", Some(access), None).await.0
}

/// The newest mail's 6-digit code.
fn last_code(state: &AppState) -> String {
    let outbox = state.mail.outbox().unwrap().lock().unwrap();
    let body = &outbox.last().expect("a mail was sent").body;
    body.split(|c: char| !c.is_ascii_digit()).find(|w| w.len() == 6).expect("a 6-digit code").to_string()
}

async fn enable_two_factor(router: &Router, email: &str) -> String {
    let (_, auth) = login(router, email, PASSWORD).await;
    let access = s(&auth, "access_token");
    let (status, body) = post(router, "/api/2fa/toggle-activation/", Some(&access), json!({})).await;
    assert_eq!((status, body["enabled"].clone()), (StatusCode::OK, json!(true)));
    access
}

#[tokio::test]
async fn two_factor_sign_in_with_the_mailed_code() {
    let (state, router) = setup("anna@example.com").await;
    let old_access = enable_two_factor(&router, "anna@example.com").await;
    assert_eq!(profile_status(&router, &old_access).await, StatusCode::UNAUTHORIZED, "enabling 2FA ends sessions (spec §4)");

    let (status, pending) = login(&router, "anna@example.com", PASSWORD).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(pending["two_factor_required"], true);
    assert!(pending.get("access_token").is_none(), "no tokens before the code");
    let token = s(&pending, "two_factor_token");
    let code = last_code(&state);

    // stored hashed, never in clear
    let challenge_id = shared::auth::Jwt::new(testkit::TEST_JWT_SECRET).verify(&token, shared::auth::TokenKind::TwoFactor).unwrap().jti;
    let stored = state.store.get_challenge(&challenge_id).await.unwrap().unwrap();
    // Exactly the HMAC of the code under the server secret, bound to this challenge.
    assert_eq!(stored.code_hash, common::hmac_hex(&[&challenge_id, ":", &code]));
    assert!(!stored.code_hash.contains(&code), "the stored HMAC holds the code");

    let wrong = if code == "000000" { "111111" } else { "000000" };
    let (status, body) = post(&router, "/api/token/2fa/", None, json!({ "two_factor_token": token, "code": wrong })).await;
    assert_eq!((status, s(&body, "message")), (StatusCode::BAD_REQUEST, "code_not_correct".into()));
    let (status, body) = post(&router, "/api/token/2fa/", None, json!({ "two_factor_token": token, "code": "12a" })).await;
    assert_eq!((status, body["errors"]["code"][0].clone()), (StatusCode::BAD_REQUEST, json!("code_format")));

    let (status, auth) = post(&router, "/api/token/2fa/", None, json!({ "two_factor_token": token, "code": code })).await;
    assert_eq!(status, StatusCode::OK, "{auth}");
    assert_eq!(profile_status(&router, &s(&auth, "access_token")).await, StatusCode::OK);

    // single use
    let (status, body) = post(&router, "/api/token/2fa/", None, json!({ "two_factor_token": token, "code": code })).await;
    assert_eq!((status, s(&body, "message")), (StatusCode::BAD_REQUEST, "code_expired".into()));

    // status and turning it off
    let access = s(&auth, "access_token");
    let (_, st) = testkit::call(&router, Method::GET, "/api/2fa/status/", Some(&access), None).await;
    assert_eq!(st["enabled"], true);
    // Turning it off needs the password: an access token alone does not do.
    let (status, st) = post(&router, "/api/2fa/toggle-activation/", Some(&access), json!({})).await;
    assert_eq!((status, st["errors"]["password"][0].clone()), (StatusCode::BAD_REQUEST, json!("password_or_code_required")));
    let (_, st) = post(&router, "/api/2fa/toggle-activation/", Some(&access), json!({ "enabled": false, "password": "wrong-one" })).await;
    assert_eq!(st["errors"]["password"][0], "current_password_wrong");
    assert_eq!(testkit::call(&router, Method::GET, "/api/2fa/status/", Some(&access), None).await.1["enabled"], true);
    let (_, st) = post(&router, "/api/2fa/toggle-activation/", Some(&access), json!({ "enabled": false, "password": PASSWORD })).await;
    assert_eq!(st["enabled"], false);
    assert_eq!(profile_status(&router, &access).await, StatusCode::OK, "disabling keeps the session");
    let (_, auth) = login(&router, "anna@example.com", PASSWORD).await;
    assert!(auth["access_token"].as_str().is_some_and(|t| !t.is_empty()), "signed in: {auth}");
}

/// The two-factor challenge a token names, as stored.
async fn challenge_of(state: &AppState, token: &str) -> shared::domain::two_factor::Challenge {
    let id = shared::auth::Jwt::new(testkit::TEST_JWT_SECRET).verify(token, shared::auth::TokenKind::TwoFactor).unwrap().jti;
    state.store.get_challenge(&id).await.unwrap().unwrap()
}

fn other_code(code: &str) -> &'static str {
    if code == "000000" {
        "111111"
    } else {
        "000000"
    }
}

#[tokio::test]
async fn five_wrong_codes_replace_the_code_and_expired_codes_fail() {
    let (state, router) = setup("anna@example.com").await;
    enable_two_factor(&router, "anna@example.com").await;
    let (_, pending) = login(&router, "anna@example.com", PASSWORD).await;
    let token = s(&pending, "two_factor_token");
    let code = last_code(&state);
    let wrong = other_code(&code);
    let mut answers = vec![];
    for _ in 0..5 {
        answers
            .push(post(&router, "/api/token/2fa/", None, json!({ "two_factor_token": token, "code": wrong })).await.1["message"].clone());
    }
    assert_eq!(answers, ["code_not_correct", "code_not_correct", "code_not_correct", "code_not_correct", "code_replaced"]);
    // The old code is dead; a new one was mailed for the same sign-in.
    let new_code = last_code(&state);
    let (status, body) = post(&router, "/api/token/2fa/", None, json!({ "two_factor_token": token, "code": code })).await;
    if new_code != code {
        assert_eq!(
            (status, s(&body, "message")),
            (StatusCode::BAD_REQUEST, "code_not_correct".into()),
            "the replaced code no longer works"
        );
    }
    let (status, auth) = post(&router, "/api/token/2fa/", None, json!({ "two_factor_token": token, "code": new_code })).await;
    assert_eq!(status, StatusCode::OK, "the new code works with the same token: {auth}");

    // a resend also gives a working code
    let (_, pending) = login(&router, "anna@example.com", PASSWORD).await;
    let token = s(&pending, "two_factor_token");
    let (status, sent) = post(&router, "/api/resend/2fa/", None, json!({ "two_factor_token": token })).await;
    assert_eq!((status, s(&sent, "message")), (StatusCode::OK, "code_sent".into()));
    let (status, _) =
        post(&router, "/api/token/2fa/", None, json!({ "two_factor_token": s(&sent, "two_factor_token"), "code": last_code(&state) }))
            .await;
    assert_eq!(status, StatusCode::OK);

    // an expired code is refused even when right
    let (_, pending) = login(&router, "anna@example.com", PASSWORD).await;
    let token = s(&pending, "two_factor_token");
    let code = last_code(&state);
    let mut ch = challenge_of(&state, &token).await;
    ch.expires_at = chrono::Utc::now().timestamp() - 1;
    state.store.save_challenge(&ch).await.unwrap();
    let (_, body) = post(&router, "/api/token/2fa/", None, json!({ "two_factor_token": token, "code": code })).await;
    assert_eq!(body["message"], "code_expired");
}

#[tokio::test]
async fn wrong_codes_by_someone_with_the_password_never_stop_the_owners_right_code() {
    let (state, _) = setup("anna@example.com").await;
    let mut user = state.store.find_user_by_email("anna@example.com").await.unwrap().unwrap();
    user.two_factor = true;
    state.store.put_user(&user).await.unwrap();
    // Someone who has the password guesses codes on their own sign-ins.
    let mut guesses = vec![];
    for _ in 0..3 {
        let LoginOutcome::TwoFactor(p) = sessions::login(&state, "anna@example.com", PASSWORD.into(), "6.6.6.6").await.unwrap() else {
            panic!("two-factor is on")
        };
        for _ in 0..8 {
            guesses.push(sessions::verify_code(&state, &p.two_factor_token, "000001", "6.6.6.6").await.err().map(|e| e.key()));
        }
    }
    assert!(guesses.iter().all(|g| g.is_some()), "{guesses:?}");
    // The owner, from home, signs in with the password and the mailed code.
    let LoginOutcome::TwoFactor(p) = sessions::login(&state, "anna@example.com", PASSWORD.into(), "home").await.unwrap() else {
        panic!("two-factor is on")
    };
    let code = last_code(&state);
    let signed_in = sessions::verify_code(&state, &p.two_factor_token, &code, "home").await;
    assert!(signed_in.is_ok_and(|pair| !pair.access_token.is_empty()), "the owner signs in");
}

#[tokio::test]
async fn recovery_requests_by_anybody_do_not_stop_the_owners_sign_in_code() {
    let (state, router) = setup("anna@example.com").await;
    let (_, first) = {
        enable_two_factor(&router, "anna@example.com").await;
        let (_, pending) = login(&router, "anna@example.com", PASSWORD).await;
        let (status, auth) = post(
            &router,
            "/api/token/2fa/",
            None,
            json!({ "two_factor_token": s(&pending, "two_factor_token"), "code": last_code(&state) }),
        )
        .await;
        assert_eq!(status, StatusCode::OK);
        (status, auth)
    };
    let device = s(&first, "device_token");
    // Anonymous recovery requests naming the owner, past every mail limit.
    for _ in 0..=shared::store::rate_limit::MAIL_PER_RECIPIENT.max {
        post(&router, "/api/password/recover/", None, json!({ "email": "anna@example.com" })).await;
    }
    let mails = state.mail.outbox().unwrap().lock().unwrap().len();
    // The owner's right password, with and without the device token: the code is mailed.
    for device in [Some(device.as_str()), None] {
        let pending = match sessions::login_from_device(&state, "anna@example.com", PASSWORD.into(), "home", device).await {
            Ok(LoginOutcome::TwoFactor(p)) => p,
            Ok(_) => panic!("two-factor is on"),
            Err(e) => panic!("the owner's sign-in was refused: {e:?}"),
        };
        let code = last_code(&state);
        assert!(sessions::verify_code(&state, &pending.two_factor_token, &code, "home").await.is_ok());
    }
    assert_eq!(state.mail.outbox().unwrap().lock().unwrap().len(), mails + 2, "both codes were mailed");
}

fn window() -> i64 {
    chrono::Utc::now().timestamp().div_euclid(LOGIN_PER_PAIR.window_secs)
}

/// Runs `body` until one run of it stays inside one 15-minute window (a run
/// whose counts straddle a window's end has proved nothing either way; that
/// happens once in a few hundred runs). `body` gets the run's number, for
/// addresses and devices of its own: the counts a straddling run left in the
/// next window would otherwise be the next run's (a device's free tries used
/// up before it tried).
async fn in_one_window<F, Fut>(mut body: F)
where
    F: FnMut(u32) -> Fut,
    Fut: std::future::Future<Output = Box<dyn FnOnce()>>,
{
    for run in 0..3 {
        let started = window();
        let check = body(run).await;
        if window() == started {
            check();
            return;
        }
    }
    panic!("three window ends in one test run");
}

async fn sign_in(state: &AppState, email: &str, password: &str, client: &str, device: Option<&str>) -> Result<Option<String>, String> {
    match sessions::login_from_device(state, email, password.into(), client, device).await {
        Ok(LoginOutcome::Tokens(pair)) => Ok(pair.device_token),
        Ok(LoginOutcome::TwoFactor(_)) => Ok(None),
        Err(e) => Err(format!("{e:?}")),
    }
}

#[tokio::test]
async fn guesses_from_other_addresses_never_lock_out_the_owners_new_browser() {
    let (state, _) = setup("anna@example.com").await;
    testkit::account(&state, "other@example.com", PASSWORD, Role::Customer).await;
    let foreign = sign_in(&state, "other@example.com", PASSWORD, "elsewhere", None).await.unwrap().unwrap();
    in_one_window(|run| {
        let state = state.clone();
        let foreign = foreign.clone();
        async move {
            // Thirty wrong passwords from ten addresses (three each: no delays apply).
            let mut misses = vec![];
            for i in 0..30 {
                misses.push(sign_in(&state, "anna@example.com", "wrong-password", &format!("10.{run}.0.{}", i % 10), None).await);
            }
            // A browser without a device token, from another address: in.
            let new_browser = sign_in(&state, "ANNA@example.com", PASSWORD, &format!("10.{run}.1.1"), None).await;
            let other_accounts_device = sign_in(&state, "anna@example.com", PASSWORD, &format!("10.{run}.1.3"), Some(&foreign)).await;
            let forged = sign_in(&state, "anna@example.com", PASSWORD, &format!("10.{run}.1.4"), Some("not-a-token")).await;
            // A guessing address that goes on waits, whatever the password.
            let t = chrono::Utc::now().timestamp();
            for _ in 0..3 {
                state.store.count_failure(LOGIN_PER_PAIR, &format!("anna@example.com|10.{run}.0.1"), t).await.unwrap();
            }
            let guesser = sign_in(&state, "anna@example.com", PASSWORD, &format!("10.{run}.0.1"), None).await;
            Box::new(move || {
                assert!(misses.iter().all(|m| m.as_ref().err().map(String::as_str) == Some("InvalidCredentials")), "{misses:?}");
                assert!(matches!(new_browser, Ok(Some(_))), "others' guesses do not lock the owner out: {new_browser:?}");
                assert!(
                    matches!(other_accounts_device, Ok(Some(_))),
                    "another account's device token counts as none: {other_accounts_device:?}"
                );
                assert!(matches!(forged, Ok(Some(_))), "{forged:?}");
                assert_eq!(guesser, Err("TooManyRequests".into()), "the guessing address waits its delay");
            }) as Box<dyn FnOnce()>
        }
    })
    .await;
}

#[tokio::test]
async fn a_known_device_is_not_slowed_by_guesses_from_its_own_address() {
    let (state, _) = setup("anna@example.com").await;
    in_one_window(|run| {
        let state = state.clone();
        async move {
            // Each run its own address and device: a run that straddled a
            // window's end left its counts in the window the next run uses.
            let office = format!("office-{run}");
            let device = sign_in(&state, "anna@example.com", PASSWORD, &office, None).await.unwrap().unwrap();
            let t = chrono::Utc::now().timestamp();
            for _ in 0..10 {
                state.store.count_failure(LOGIN_PER_PAIR, &format!("anna@example.com|{office}"), t).await.unwrap();
            }
            let colleague = sign_in(&state, "anna@example.com", PASSWORD, &office, None).await;
            let owner = sign_in(&state, "anna@example.com", PASSWORD, &office, Some(&device)).await;
            // After the free tries each miss waits 1, 2, 4 … s. On a busy
            // machine one try can take longer than the first wait, so it tries
            // until one lands inside its wait: by the ninth at the latest (32 s),
            // under the device's own limit of 10.
            let mut typos = vec![];
            for _ in 0..sign_in::FREE_TRIES + 6 {
                let r = sign_in(&state, "anna@example.com", "typo", &office, Some(&device)).await;
                let waited = r == Err("TooManyRequests".to_string());
                typos.push(r);
                if waited {
                    break;
                }
            }
            Box::new(move || {
                assert_eq!(colleague, Err("TooManyRequests".into()), "the address without a device token waits");
                assert!(matches!(owner, Ok(Some(_))), "the device counts on its own: {owner:?}");
                let (last, misses) = typos.split_last().expect("tries");
                assert!(misses.len() >= sign_in::FREE_TRIES as usize, "the free tries are free: {typos:?}");
                assert!(misses.iter().all(|m| m == &Err("InvalidCredentials".to_string())), "{typos:?}");
                assert_eq!(last, &Err("TooManyRequests".to_string()), "the device's own misses bring its own delays: {typos:?}");
            }) as Box<dyn FnOnce()>
        }
    })
    .await;
}

#[tokio::test]
async fn a_password_change_is_no_failed_sign_in_and_ends_older_device_tokens() {
    let (state, router) = setup("anna@example.com").await;
    let old_device = sign_in(&state, "anna@example.com", PASSWORD, "office", None).await.unwrap().unwrap();
    // Twelve password changes (more than any sign-in limit) and back.
    let mut password = PASSWORD.to_string();
    for i in 0..12 {
        let (_, auth) = login(&router, "anna@example.com", &password).await;
        let next = format!("Byte-{i}-lösenord-Kvist");
        let (status, body) = post(
            &router,
            "/api/password/change/",
            Some(&s(&auth, "access_token")),
            json!({ "old_password": password, "new_password": next, "confirm_password": next }),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{body}");
        password = next;
    }
    in_one_window(|_| {
        let state = state.clone();
        let (old_device, password) = (old_device.clone(), password.clone());
        async move {
            let fresh = sign_in(&state, "anna@example.com", &password, "home", None).await;
            let t = chrono::Utc::now().timestamp();
            for _ in 0..10 {
                state.store.count_failure(LOGIN_PER_PAIR, "anna@example.com|office", t).await.unwrap();
            }
            let stale = sign_in(&state, "anna@example.com", &password, "office", Some(&old_device)).await;
            let new_device = fresh.clone().ok().flatten();
            let current = match &new_device {
                Some(d) => sign_in(&state, "anna@example.com", &password, "office", Some(d)).await,
                None => Err("no device token".into()),
            };
            Box::new(move || {
                assert!(matches!(fresh, Ok(Some(_))), "changes never count as failed sign-ins: {fresh:?}");
                assert_eq!(stale, Err("TooManyRequests".into()), "a device token from before the change counts as none");
                assert!(matches!(current, Ok(Some(_))), "a device token from after it counts apart: {current:?}");
            }) as Box<dyn FnOnce()>
        }
    })
    .await;
}

#[tokio::test]
async fn wrong_current_passwords_have_their_own_limit() {
    let (state, router) = setup("anna@example.com").await;
    let (_, auth) = login(&router, "anna@example.com", PASSWORD).await;
    let access = s(&auth, "access_token");
    let limit = shared::store::rate_limit::PASSWORD_CHECK_PER_USER;
    let started = window();
    let mut answers = vec![];
    for _ in 0..=limit.max {
        let body =
            json!({ "old_password": "not-it", "new_password": "Byte-lösenord-Kvist-9", "confirm_password": "Byte-lösenord-Kvist-9" });
        answers.push(post(&router, "/api/password/change/", Some(&access), body).await.0);
    }
    let signed_in = sign_in(&state, "anna@example.com", PASSWORD, "home", None).await;
    if window() == started {
        assert!(answers[..limit.max as usize].iter().all(|s| *s == StatusCode::BAD_REQUEST), "{answers:?}");
        assert_eq!(answers.last(), Some(&StatusCode::TOO_MANY_REQUESTS));
        assert!(matches!(signed_in, Ok(Some(_))), "signing in is not affected: {signed_in:?}");
    }
}

#[tokio::test]
async fn one_address_on_one_account_waits_growing_delays() {
    let (state, _) = setup("anna@example.com").await;
    in_one_window(|run| {
        let state = state.clone();
        async move {
            // Each run its own address (see a_known_device_is_not_slowed_by_guesses_from_its_own_address).
            let address = format!("1.2.3.{run}");
            let mut first = vec![];
            for _ in 0..sign_in::FREE_TRIES {
                first.push(sign_in(&state, "anna@example.com", "wrong", &address, None).await);
            }
            // Three more failures just now: the next try waits 8 seconds.
            let t = chrono::Utc::now().timestamp();
            for _ in 0..3 {
                state.store.count_failure(LOGIN_PER_PAIR, &format!("anna@example.com|{address}"), t).await.unwrap();
            }
            let waiting = sign_in(&state, "anna@example.com", PASSWORD, &address, None).await;
            let elsewhere = sign_in(&state, "anna@example.com", PASSWORD, "5.6.7.8", None).await;
            Box::new(move || {
                assert!(
                    first.iter().all(|m| m.as_ref().err().map(String::as_str) == Some("InvalidCredentials")),
                    "the first tries are free: {first:?}"
                );
                assert_eq!(waiting, Err("TooManyRequests".into()), "even the right password waits its delay");
                assert!(matches!(elsewhere, Ok(Some(_))), "the delay is this address's only: {elsewhere:?}");
            }) as Box<dyn FnOnce()>
        }
    })
    .await;
}

#[tokio::test]
async fn one_address_is_limited_over_every_account() {
    let (state, _) = setup("anna@example.com").await;
    let device = sign_in(&state, "anna@example.com", PASSWORD, "home", None).await.unwrap().unwrap();
    in_one_window(|_| {
        let state = state.clone();
        let device = device.clone();
        async move {
            let t = chrono::Utc::now().timestamp();
            for _ in 0..LOGIN_PER_ADDRESS.max {
                state.store.count_failure(LOGIN_PER_ADDRESS, "6.6.6.6", t).await.unwrap();
            }
            let refused = sign_in(&state, "anna@example.com", PASSWORD, "6.6.6.6", Some(&device)).await;
            let other = sign_in(&state, "anna@example.com", PASSWORD, "7.7.7.7", None).await;
            Box::new(move || {
                assert_eq!(refused, Err("TooManyRequests".into()), "the address limit holds for known devices too");
                assert!(matches!(other, Ok(Some(_))));
            }) as Box<dyn FnOnce()>
        }
    })
    .await;
}

#[tokio::test]
async fn refused_and_wrong_tries_take_as_long_as_each_other() {
    let (state, _) = setup("anna@example.com").await;
    let t = chrono::Utc::now().timestamp();
    for _ in 0..10 {
        state.store.count_failure(LOGIN_PER_PAIR, "anna@example.com|10.2.0.2", t).await.unwrap();
    }
    // Warm up, then time a wrong password for an unknown address and a
    // delay's refusal: both run the password hash.
    let _ = sign_in(&state, "nobody@example.com", "wrong", "10.2.0.0", None).await;
    let time = |email: &'static str, client: &'static str| {
        let state = state.clone();
        async move {
            let started = std::time::Instant::now();
            let out = sign_in(&state, email, PASSWORD, client, None).await;
            (started.elapsed(), out)
        }
    };
    let (miss, out) = time("nobody@example.com", "10.2.0.1").await;
    assert_eq!(out, Err("InvalidCredentials".into()));
    let (refused, out) = time("anna@example.com", "10.2.0.2").await;
    if out.is_ok() {
        return; // the window ended in between: nothing to compare
    }
    assert_eq!(out, Err("TooManyRequests".into()));
    assert!(refused * 3 > miss, "a refusal is not answered at once: {refused:?} vs {miss:?}");
}

/// Why the tests above run again when a window ends during them: failures on
/// either side of a window's end count in different windows, so ten of them
/// split across it lock nothing.
#[tokio::test]
async fn failures_on_either_side_of_a_window_end_count_apart() {
    let (state, _) = common::setup().await;
    let limit = shared::store::rate_limit::Limit { scope: "split-test", max: 10, window_secs: 15 * 60 };
    let end = 1_000 * limit.window_secs;
    for t in [end - 1; 5].into_iter().chain([end; 5]) {
        state.store.rate_limit(limit, "split@example.com", t).await.unwrap();
    }
    assert!(!state.store.rate_exceeded(limit, "split@example.com", end - 1).await.unwrap());
    assert!(!state.store.rate_exceeded(limit, "split@example.com", end).await.unwrap());
    for _ in 0..5 {
        state.store.rate_limit(limit, "split@example.com", end + limit.window_secs - 1).await.unwrap();
    }
    assert!(state.store.rate_exceeded(limit, "split@example.com", end).await.unwrap(), "ten in one window lock");
}

#[tokio::test]
async fn reusing_a_spent_refresh_token_revokes_the_family_and_logout_revokes_too() {
    let (_state, router) = setup("anna@example.com").await;
    let (_, a) = login(&router, "anna@example.com", PASSWORD).await;
    let r1 = s(&a, "refresh_token");
    let (status, b) = post(&router, "/api/token/refresh/", None, json!({ "refresh_token": r1 })).await;
    assert_eq!(status, StatusCode::OK);
    let r2 = s(&b, "refresh_token");
    assert_eq!(profile_status(&router, &s(&b, "access_token")).await, StatusCode::OK);

    let (status, _) = post(&router, "/api/token/refresh/", None, json!({ "refresh_token": r1 })).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert_eq!(profile_status(&router, &s(&b, "access_token")).await, StatusCode::UNAUTHORIZED, "a replay ends the access tokens too");
    assert_eq!(profile_status(&router, &s(&a, "access_token")).await, StatusCode::UNAUTHORIZED);
    let (status, _) = post(&router, "/api/token/refresh/", None, json!({ "refresh_token": r2 })).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "the whole family is revoked after a replay");

    // another sign-in is unaffected, and logout ends it
    let (_, c) = login(&router, "anna@example.com", PASSWORD).await;
    let (_, d) = login(&router, "anna@example.com", PASSWORD).await;
    let (status, body) = post(&router, "/api/logout/", None, json!({ "refresh_token": s(&c, "refresh_token") })).await;
    assert_eq!((status, s(&body, "message")), (StatusCode::OK, "logged_out".into()));
    assert_eq!(profile_status(&router, &s(&c, "access_token")).await, StatusCode::UNAUTHORIZED, "logout ends its access tokens at once");
    assert_eq!(profile_status(&router, &s(&d, "access_token")).await, StatusCode::OK);
    let (status, _) = post(&router, "/api/token/refresh/", None, json!({ "refresh_token": s(&c, "refresh_token") })).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let (status, _) = post(&router, "/api/token/refresh/", None, json!({ "refresh_token": s(&d, "refresh_token") })).await;
    assert_eq!(status, StatusCode::OK, "logout ends only its own sign-in");
    let (status, _) = post(&router, "/api/logout/", None, json!({ "refresh_token": "garbage" })).await;
    assert_eq!(status, StatusCode::OK, "logout always succeeds for the user");
}

#[tokio::test]
async fn change_password_checks_the_current_one_and_the_rules_and_ends_other_sessions() {
    let (_state, router) = setup("anna@example.com").await;
    let (_, other) = login(&router, "anna@example.com", PASSWORD).await;
    let (_, mine) = login(&router, "anna@example.com", PASSWORD).await;
    let access = s(&mine, "access_token");

    let (status, body) = post(
        &router,
        "/api/password/change/",
        Some(&access),
        json!({ "old_password": "not-it-at-all", "new_password": "password1", "confirm_password": "password2" }),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(body["errors"]["old_password"][0], "current_password_wrong");
    assert_eq!(body["errors"]["new_password"][0], "password_too_common");
    assert_eq!(body["errors"]["confirm_password"][0], "passwords_do_not_match");
    let (_, body) = post(
        &router,
        "/api/password/change/",
        Some(&access),
        json!({ "old_password": PASSWORD, "new_password": "short", "confirm_password": "short" }),
    )
    .await;
    assert_eq!(body["errors"]["new_password"][0], "password_too_short");
    let long = "x".repeat(129);
    let (_, body) = post(
        &router,
        "/api/password/change/",
        Some(&access),
        json!({ "old_password": PASSWORD, "new_password": long, "confirm_password": long }),
    )
    .await;
    assert_eq!(body["errors"]["new_password"][0], "password_too_long");
    // Easily guessed: a season and a year, the owner's own e-mail, the product's name.
    for weak in ["Sommar2024!", "Anna@Example.com", "LegalServices1!"] {
        let (status, body) = post(
            &router,
            "/api/password/change/",
            Some(&access),
            json!({ "old_password": PASSWORD, "new_password": weak, "confirm_password": weak }),
        )
        .await;
        assert_eq!((status, body["errors"]["new_password"][0].clone()), (StatusCode::BAD_REQUEST, json!("password_too_weak")), "{weak}");
    }
    assert_eq!(login(&router, "anna@example.com", PASSWORD).await.0, StatusCode::OK, "refused changes change nothing");

    let (status, fresh) = post(
        &router,
        "/api/password/change/",
        Some(&access),
        json!({ "old_password": PASSWORD, "new_password": "Brand-new-pass-77", "confirm_password": "Brand-new-pass-77" }),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{fresh}");
    assert_eq!(profile_status(&router, &s(&fresh, "access_token")).await, StatusCode::OK);
    assert_eq!(profile_status(&router, &s(&other, "access_token")).await, StatusCode::UNAUTHORIZED);
    let (status, _) = post(&router, "/api/token/refresh/", None, json!({ "refresh_token": s(&other, "refresh_token") })).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert_eq!(login(&router, "anna@example.com", PASSWORD).await.0, StatusCode::BAD_REQUEST);
    assert_eq!(login(&router, "anna@example.com", "Brand-new-pass-77").await.0, StatusCode::OK);
}

#[tokio::test]
async fn recovery_answers_alike_and_its_link_works_once() {
    let (state, router) = setup("anna@example.com").await;
    let (s1, known) = post(&router, "/api/password/recover/", None, json!({ "email": "Anna@Example.com" })).await;
    let (s2, unknown) = post(&router, "/api/password/recover/", None, json!({ "email": "nobody@example.com" })).await;
    assert_eq!((s1, &known), (s2, &unknown), "known and unknown addresses answer the same");
    assert_eq!(known["message"], "recovery_sent");

    let (to, body) = {
        let outbox = state.mail.outbox().unwrap().lock().unwrap();
        assert_eq!(outbox.len(), 1, "only the known address gets mail");
        (outbox[0].to.clone(), outbox[0].body.clone())
    };
    assert_eq!(to, "anna@example.com");
    let token = body.split("/recovery/account?token=").nth(1).unwrap().split_whitespace().next().unwrap().to_string();

    let (status, body) = post(
        &router,
        "/api/password/recover/confirm/",
        None,
        json!({ "token": token, "password": "qwerty123", "confirm_password": "qwerty123" }),
    )
    .await;
    assert_eq!((status, body["errors"]["password"][0].clone()), (StatusCode::BAD_REQUEST, json!("password_too_common")));
    // The owner's own e-mail is refused before the link is spent.
    let (status, body) = post(
        &router,
        "/api/password/recover/confirm/",
        None,
        json!({ "token": token, "password": "anna@example.com!", "confirm_password": "anna@example.com!" }),
    )
    .await;
    assert_eq!((status, body["errors"]["password"][0].clone()), (StatusCode::BAD_REQUEST, json!("password_too_weak")));

    let (status, body) = post(
        &router,
        "/api/password/recover/confirm/",
        None,
        json!({ "token": token, "password": "Recovered-pass-9", "confirm_password": "Recovered-pass-9" }),
    )
    .await;
    assert_eq!((status, s(&body, "message")), (StatusCode::OK, "password_reset".into()), "a refused attempt does not spend the link");
    assert_eq!(login(&router, "anna@example.com", "Recovered-pass-9").await.0, StatusCode::OK);

    let (status, body) = post(
        &router,
        "/api/password/recover/confirm/",
        None,
        json!({ "token": token, "password": "Another-pass-10", "confirm_password": "Another-pass-10" }),
    )
    .await;
    assert_eq!((status, s(&body, "message")), (StatusCode::BAD_REQUEST, "link_invalid".into()));
    let (_, body) = post(
        &router,
        "/api/password/recover/confirm/",
        None,
        json!({ "token": "0".repeat(64), "password": "Another-pass-10", "confirm_password": "Another-pass-10" }),
    )
    .await;
    assert_eq!(body["message"], "link_invalid");
}

fn recovery_token(state: &AppState, nth: usize) -> String {
    let outbox = state.mail.outbox().unwrap().lock().unwrap();
    let body = &outbox[nth].body;
    body.split("/recovery/account?token=").nth(1).unwrap().split_whitespace().next().unwrap().to_string()
}

#[tokio::test]
async fn a_reset_ends_every_outstanding_link_and_every_session() {
    let (state, router) = setup("anna@example.com").await;
    let (_, session) = login(&router, "anna@example.com", PASSWORD).await;
    for _ in 0..2 {
        post(&router, "/api/password/recover/", None, json!({ "email": "anna@example.com" })).await;
    }
    let (first, second) = (recovery_token(&state, 0), recovery_token(&state, 1));
    let reset = |token: String, password: &'static str| {
        let router = router.clone();
        async move {
            post(
                &router,
                "/api/password/recover/confirm/",
                None,
                json!({ "token": token, "password": password, "confirm_password": password }),
            )
            .await
        }
    };
    let (status, _) = reset(second, "Recovered-pass-9").await;
    assert_eq!(status, StatusCode::OK);
    let (status, body) = reset(first, "Attacker-pass-10").await;
    assert_eq!((status, s(&body, "message")), (StatusCode::BAD_REQUEST, "link_invalid".into()), "the older link died with the reset");
    assert_eq!(profile_status(&router, &s(&session, "access_token")).await, StatusCode::UNAUTHORIZED, "the reset ends sessions");
    let (status, _) = post(&router, "/api/token/refresh/", None, json!({ "refresh_token": s(&session, "refresh_token") })).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert_eq!(login(&router, "anna@example.com", "Recovered-pass-9").await.0, StatusCode::OK);

    // A password change ends outstanding links too.
    post(&router, "/api/password/recover/", None, json!({ "email": "anna@example.com" })).await;
    let link = recovery_token(&state, 2);
    let (_, auth) = login(&router, "anna@example.com", "Recovered-pass-9").await;
    let body = json!({ "old_password": "Recovered-pass-9", "new_password": "Changed-pass-11", "confirm_password": "Changed-pass-11" });
    assert_eq!(post(&router, "/api/password/change/", Some(&s(&auth, "access_token")), body).await.0, StatusCode::OK);
    assert_eq!(reset(link, "Attacker-pass-12").await.1["message"], "link_invalid");
}
