//! Sign-in throttling that cannot be used to lock someone out (issue 22,
//! item 4). Four counters, each a fixed 15-minute window of *failures*
//! (successful sign-ins never count):
//!
//! - per client address, over every account: [`ADDRESS_MAX`] failures close
//!   the address (the global per-address limit);
//! - per account and client address: the first [`FREE_TRIES`] failures are
//!   free, then each further try waits a growing delay ([`pair_delay_secs`]);
//! - per account, from clients *without* a device token of that account:
//!   [`ACCOUNT_MAX`] failures start a cool-down for the rest of the window;
//! - per device token: [`DEVICE_MAX`] failures close that device.
//!
//! The cool-down is what an attacker can cause from anywhere, so a device
//! that signed in to the account before (it holds the signed device token
//! issued then) passes it with the right password: the owner is never
//! locked out by someone else's guesses. A refused try answers exactly like
//! a wrong password would have taken (the password is still checked, its
//! result ignored), so timing does not tell a cool-down from a miss.

/// Failures per (account, address) before the delays start.
pub const FREE_TRIES: u32 = 3;
/// The longest delay between two tries of one address on one account.
pub const MAX_DELAY_SECS: i64 = 15 * 60;
/// Failures per account from unknown devices that start the cool-down.
pub const ACCOUNT_MAX: u32 = 10;
/// Failures per device token that close the device.
pub const DEVICE_MAX: u32 = 10;
/// Failures per client address over every account.
pub const ADDRESS_MAX: u32 = 50;

/// The wait after `failures` failures of one address on one account: none
/// for the first [`FREE_TRIES`], then 1, 2, 4, 8 … seconds, at most
/// [`MAX_DELAY_SECS`].
pub fn pair_delay_secs(failures: u32) -> i64 {
    if failures < FREE_TRIES {
        return 0;
    }
    let exp = (failures - FREE_TRIES).min(20);
    (1i64 << exp).min(MAX_DELAY_SECS)
}

/// What the counters said before this try.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counters {
    /// Failures of this address on any account.
    pub address: u32,
    /// Failures of this address on this account, and when the last was.
    pub pair: u32,
    pub pair_last: i64,
    /// Failures on this account from unknown devices.
    pub account: u32,
    /// Failures of the presented device token, when it is one of this account's.
    pub device: Option<u32>,
}

/// Why a try is refused before its password counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The address's global limit.
    Address,
    /// Wait `n` more seconds (this address on this account).
    Delay(i64),
    /// The account's cool-down (unknown devices only).
    CoolDown,
    /// The device token's own limit.
    Device,
}

/// Whether this try may check its password at all.
pub fn gate(c: &Counters, now: i64) -> Result<(), Refusal> {
    if c.address >= ADDRESS_MAX {
        return Err(Refusal::Address);
    }
    let wait = c.pair_last.saturating_add(pair_delay_secs(c.pair)).saturating_sub(now);
    if wait > 0 {
        return Err(Refusal::Delay(wait));
    }
    match c.device {
        Some(d) if d >= DEVICE_MAX => Err(Refusal::Device),
        Some(_) => Ok(()),
        None if c.account >= ACCOUNT_MAX => Err(Refusal::CoolDown),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn delays_grow_after_the_free_tries_and_are_capped() {
        let d: Vec<i64> = (0..8).map(pair_delay_secs).collect();
        assert_eq!(d, vec![0, 0, 0, 1, 2, 4, 8, 16]);
        assert_eq!(pair_delay_secs(30), MAX_DELAY_SECS);
        assert_eq!(pair_delay_secs(u32::MAX), MAX_DELAY_SECS);
    }

    #[test]
    fn the_pair_waits_its_delay_after_the_last_failure() {
        let c = Counters { pair: 5, pair_last: 1000, ..Default::default() };
        assert_eq!(gate(&c, 1001), Err(Refusal::Delay(3)));
        assert_eq!(gate(&c, 1004), Ok(()));
        let early = Counters { pair: 2, pair_last: 1000, ..Default::default() };
        assert_eq!(gate(&early, 1000), Ok(()), "the first tries are free");
    }

    #[test]
    fn the_cool_down_stops_unknown_devices_and_a_known_device_passes_it() {
        let cooled = Counters { account: ACCOUNT_MAX, ..Default::default() };
        assert_eq!(gate(&cooled, 0), Err(Refusal::CoolDown));
        assert_eq!(gate(&Counters { device: Some(0), ..cooled }, 0), Ok(()));
        assert_eq!(gate(&Counters { device: Some(DEVICE_MAX), ..cooled }, 0), Err(Refusal::Device));
    }

    #[test]
    fn the_address_limit_applies_to_everyone() {
        let c = Counters { address: ADDRESS_MAX, device: Some(0), ..Default::default() };
        assert_eq!(gate(&c, 0), Err(Refusal::Address));
    }
}
