//! Outgoing mail through SES (v2). Locally every mail is also printed and kept
//! in an in-memory outbox the gateway lists, so sign-up flows can be finished
//! without a mail server.

use aws_sdk_sesv2::types::{Body, Content, Destination, EmailContent, Message};
use serde::Serialize;
use std::sync::{Arc, Mutex};

use crate::error::ApiError;

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct SentMail {
    pub to: String,
    pub subject: String,
    pub body: String,
    pub sent_at: chrono::DateTime<chrono::Utc>,
    pub message_id: Option<String>,
}

/// Newest last. Shared by every router in the local gateway.
pub type Outbox = Arc<Mutex<Vec<SentMail>>>;

#[derive(Clone)]
pub struct Mailer {
    client: aws_sdk_sesv2::Client,
    sender: String,
    outbox: Option<Outbox>,
}

impl Mailer {
    pub fn new(client: aws_sdk_sesv2::Client, sender: impl Into<String>, outbox: Option<Outbox>) -> Self {
        Mailer { client, sender: sender.into(), outbox }
    }

    pub fn outbox(&self) -> Option<&Outbox> {
        self.outbox.as_ref()
    }

    pub async fn send(&self, to: &str, subject: &str, body: &str) -> Result<(), ApiError> {
        let content = |t: &str| Content::builder().data(t).charset("UTF-8").build().map_err(ApiError::internal);
        let message = Message::builder().subject(content(subject)?).body(Body::builder().text(content(body)?).build()).build();
        let out = self
            .client
            .send_email()
            .from_email_address(&self.sender)
            .destination(Destination::builder().to_addresses(to).build())
            .content(EmailContent::builder().simple(message).build())
            .send()
            .await
            .map_err(|e| {
                crate::telemetry::mail(false);
                ApiError::internal(aws_sdk_sesv2::error::DisplayErrorContext(e))
            })?;
        crate::telemetry::mail(true);
        if let Some(outbox) = &self.outbox {
            let mail = SentMail {
                to: to.into(),
                subject: subject.into(),
                body: body.into(),
                sent_at: chrono::Utc::now(),
                message_id: out.message_id,
            };
            println!("MAIL to={} subject={:?}\n{}\n--- end of mail", mail.to, mail.subject, mail.body);
            outbox.lock().unwrap_or_else(|p| p.into_inner()).push(mail);
        }
        Ok(())
    }

    /// Registers the sender identity (local stand-in; on AWS the template and
    /// DNS verification own it). Idempotent.
    pub async fn ensure_sender(&self) -> Result<(), ApiError> {
        let res = self.client.create_email_identity().email_identity(&self.sender).send().await;
        match res {
            Ok(_) => Ok(()),
            Err(e) if e.as_service_error().is_some_and(|s| s.is_already_exists_exception()) => Ok(()),
            Err(e) => Err(ApiError::internal(aws_sdk_sesv2::error::DisplayErrorContext(e))),
        }
    }
}
