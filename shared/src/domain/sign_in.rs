//! Sign-in throttling that an outsider cannot turn against the owner. Three
//! counters, each a fixed 15-minute window of *failures* (successful
//! sign-ins never count):
//!
//! - per client address, over every account: [`ADDRESS_MAX`] failures close
//!   the address (the global per-address limit);
//! - per account and client address, for clients without a device token of
//!   the account: the first [`FREE_TRIES`] failures are free, then each
//!   further try waits a growing delay ([`pair_delay_secs`]);
//! - per device token: the same growing delays, and [`DEVICE_MAX`] failures
//!   close that device.
//!
//! There is no limit per account alone: guesses from other addresses or
//! other devices never slow down the owner's browser, with or without a
//! device token. A device token is issued by a completed sign-in and carries
//! the user's token version, so a password change ends those issued before.
//! A refused try answers exactly like a wrong password would have taken (the
//! password is still checked, its result ignored), so timing does not tell a
//! refusal from a miss.

/// Failures per (account, address) or device before the delays start.
pub const FREE_TRIES: u32 = 3;
/// The longest delay between two tries of one address on one account.
pub const MAX_DELAY_SECS: i64 = 15 * 60;
/// Failures per device token that close the device.
pub const DEVICE_MAX: u32 = 10;
/// Failures per client address over every account.
pub const ADDRESS_MAX: u32 = 50;

/// The wait after `failures` failures of one address on one account (or of
/// one device): none for the first [`FREE_TRIES`], then 1, 2, 4, 8 …
/// seconds, at most [`MAX_DELAY_SECS`].
pub fn pair_delay_secs(failures: u32) -> i64 {
    if failures < FREE_TRIES {
        return 0;
    }
    let exp = (failures - FREE_TRIES).min(20);
    (1i64 << exp).min(MAX_DELAY_SECS)
}

/// Failures counted in a window, and when the last one was (epoch seconds).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Failures {
    pub count: u32,
    pub last: i64,
}

/// What the counters said before this try.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counters {
    /// Failures of this address on any account.
    pub address: u32,
    /// Failures of this address on this account.
    pub pair: Failures,
    /// Failures of the presented device token, when it is a current one of this account's.
    pub device: Option<Failures>,
}

/// Why a try is refused before its password counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The address's global limit.
    Address,
    /// Wait `n` more seconds (this address on this account, or this device).
    Delay(i64),
    /// The device token's own limit.
    Device,
}

fn wait(f: Failures, now: i64) -> Result<(), Refusal> {
    let wait = f.last.saturating_add(pair_delay_secs(f.count)).saturating_sub(now);
    if wait > 0 {
        Err(Refusal::Delay(wait))
    } else {
        Ok(())
    }
}

/// Whether this try may check its password at all. A device token's own
/// counter stands in for the address's on the account: a known browser is
/// not slowed by others behind the same address.
pub fn gate(c: &Counters, now: i64) -> Result<(), Refusal> {
    if c.address >= ADDRESS_MAX {
        return Err(Refusal::Address);
    }
    match c.device {
        Some(d) if d.count >= DEVICE_MAX => Err(Refusal::Device),
        Some(d) => wait(d, now),
        None => wait(c.pair, now),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(count: u32, last: i64) -> Failures {
        Failures { count, last }
    }

    #[test]
    fn delays_grow_after_the_free_tries_and_are_capped() {
        let d: Vec<i64> = (0..8).map(pair_delay_secs).collect();
        assert_eq!(d, vec![0, 0, 0, 1, 2, 4, 8, 16]);
        assert_eq!(pair_delay_secs(30), MAX_DELAY_SECS);
        assert_eq!(pair_delay_secs(u32::MAX), MAX_DELAY_SECS);
    }

    #[test]
    fn the_pair_waits_its_delay_after_the_last_failure() {
        let c = Counters { pair: f(5, 1000), ..Default::default() };
        assert_eq!(gate(&c, 1001), Err(Refusal::Delay(3)));
        assert_eq!(gate(&c, 1004), Ok(()));
        let early = Counters { pair: f(2, 1000), ..Default::default() };
        assert_eq!(gate(&early, 1000), Ok(()), "the first tries are free");
    }

    #[test]
    fn a_known_device_is_not_slowed_by_its_address_and_has_its_own_limit() {
        let busy = Counters { pair: f(30, 1000), ..Default::default() };
        assert!(matches!(gate(&busy, 1001), Err(Refusal::Delay(_))));
        assert_eq!(gate(&Counters { device: Some(f(0, 0)), ..busy }, 1001), Ok(()));
        assert_eq!(gate(&Counters { device: Some(f(4, 1000)), ..busy }, 1001), Err(Refusal::Delay(1)));
        assert_eq!(gate(&Counters { device: Some(f(DEVICE_MAX, 0)), ..busy }, 5000), Err(Refusal::Device));
    }

    #[test]
    fn the_address_limit_applies_to_everyone() {
        let c = Counters { address: ADDRESS_MAX, device: Some(f(0, 0)), ..Default::default() };
        assert_eq!(gate(&c, 0), Err(Refusal::Address));
    }
}
