//! Confirming an account's sign-in address before notification mail goes to it (issue 40).
//!
//! Anyone can register, and a business administrator can create or edit members, with an
//! address that is not theirs; form notifications carry what visitors type, so until the
//! mailbox agrees, the platform sends it no notification (`Store::store_submission` checks
//! `users.email_confirmed_at`). Registering, and a business administrator creating a member or
//! changing a member's address, queue a confirmation e-mail with a link carrying a random
//! token (only its hash is stored; a new e-mail replaces it). The owner can resend it from the
//! dashboard. Mail the user asks for themselves (a password reset, this confirmation) is sent
//! whatever the state.
//!
//! The e-mails are rationed as form notification confirmations are ([`form_recipients`]): at
//! most [`MAX_SENDS_PER_ADDRESS`] per address, [`RESEND_AFTER`] apart; a link works
//! [`LINK_VALID_FOR`].
//!
//! Accounts that existed before this check count as confirmed (migration 0019); the seeded
//! demo and administrator accounts are confirmed by the seed.
//!
//! [`form_recipients`]: super::form_recipients

use chrono::Duration;
use vitrine_shared::language::Language;
use vitrine_shared::store::{User, now};

use super::Mail;
use crate::{
    accounts::auth,
    base::Core,
    error::{ApiError, ErrorCode, Result},
};

/// Confirmation e-mails one address of one account gets, in all.
pub const MAX_SENDS_PER_ADDRESS: i64 = 5;
/// The least time between two of them.
pub const RESEND_AFTER: Duration = Duration::minutes(10);
/// How long a confirmation link works.
pub const LINK_VALID_FOR: Duration = Duration::days(7);

/// Queues a confirmation e-mail to `user`'s sign-in address unless it is confirmed. `resend`:
/// the owner asked, so a refusal of the ration is their 429; otherwise (registration, a
/// business administrator's change) a refusal is logged and the owner can resend later.
pub async fn request(mail: &Mail, user: &User, resend: bool) -> Result<()> {
    match send(mail, user).await {
        Err(e) if !resend => {
            tracing::warn!(user = user.id.get(), error = %e, "sign-in address confirmation not sent");
            Ok(())
        }
        other => other,
    }
}

async fn send(mail: &Mail, user: &User) -> Result<()> {
    if user.email_confirmed_at.is_some() {
        return Ok(());
    }
    let core = &mail.core;
    let Some((sent_at, sends)) = core.store.email_confirmation_state(user.id).await? else {
        return Err(ApiError::NotFound);
    };
    if sends >= MAX_SENDS_PER_ADDRESS {
        return Err(ApiError::too_many_requests(
            ErrorCode::EmailResendLimit,
            "This address was already sent every confirmation e-mail it can get; look for them (also in spam)",
            LINK_VALID_FOR.num_seconds() as u64,
        ));
    }
    if let Some(at) = sent_at {
        let wait = at + RESEND_AFTER - now();
        if wait > Duration::zero() {
            return Err(ApiError::too_many_requests(
                ErrorCode::EmailTooSoon,
                "A confirmation e-mail was sent a moment ago; try again in a few minutes",
                wait.num_seconds().max(1) as u64,
            ));
        }
    }
    let token = auth::new_token();
    if !core
        .store
        .request_email_confirmation(user.id, &auth::token_hash(&token))
        .await?
    {
        return Ok(());
    }
    let link = link(&core.settings.public_url, &token);
    let (subject, body) = message(user.language, &user.name, &link);
    mail.enqueue(&user.email, subject, &body).await?;
    Ok(())
}

/// Confirms the address whose link carried `token`; the account's id, or the link's 422.
pub async fn confirm(core: &Core, token: &str) -> Result<i64> {
    let invalid = || {
        ApiError::invalid(
            "token",
            ErrorCode::EmailLinkInvalid,
            "This confirmation link is invalid, was replaced by a newer one or has expired",
        )
    };
    let token = token.trim();
    if token.is_empty() || token.len() > 200 {
        return Err(invalid());
    }
    core.store
        .confirm_email(&auth::token_hash(token), now() - LINK_VALID_FOR)
        .await?
        .ok_or_else(invalid)
}

fn link(public_url: &str, token: &str) -> String {
    let mut url = url::Url::parse(public_url).expect("PUBLIC_URL is validated at start-up");
    url.set_path("/confirm-email");
    url.query_pairs_mut().append_pair("token", token);
    url.to_string()
}

fn message(language: Language, name: &str, link: &str) -> (&'static str, String) {
    if language.is_english() {
        (
            "Confirm your Vitrine e-mail address",
            format!(
                "Hello {name},\n\nA Vitrine account uses this address to sign in. To receive its notifications (such as the messages visitors send through your sites' forms), confirm it within 7 days:\n\n{link}\n\nIf you did not expect this, ignore this message: no notification will be sent to you.\n"
            ),
        )
    } else {
        (
            "Confirme seu e-mail na Vitrine",
            format!(
                "Olá {name},\n\nUma conta da Vitrine usa este endereço para entrar. Para receber as notificações dela (como as mensagens que os visitantes enviam pelos formulários dos seus sites), confirme-o em até 7 dias:\n\n{link}\n\nSe você não esperava por isso, ignore esta mensagem: nenhuma notificação será enviada para você.\n"
            ),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_link_carries_only_the_token() {
        assert_eq!(
            link("https://app.vitrine.site", "abc_-1"),
            "https://app.vitrine.site/confirm-email?token=abc_-1"
        );
    }
}
