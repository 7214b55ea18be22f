//! Customers (spec §3, §4, §5), one capability in five use-case groups:
//!
//! - [`registration`]: sign-up and the availability checks of its form;
//! - [`kept`]: admin and sales persons create and update customers;
//! - [`states`]: approval, activation by mailed link, (de)activating users;
//! - [`lists`]: the lists by state, dropdowns, details and entity counts;
//! - [`sectors`]: the business sectors the forms offer.
//!
//! Every write of a customer is one transaction ([`crate::store::tx::Tx`])
//! holding the user, its e-mail item, the profile, the registration-number
//! item, the department link, any link the customer is mailed, and the
//! effects of [`crate::services::events::Event::CustomerSaved`] (the
//! customer's conflict-index entries): a saved customer is findable by the
//! conflict search the moment the call returns, and a failed write leaves
//! none of it. The index record's version condition makes two concurrent
//! changes of one customer meet in the transaction: the loser reads again
//! and decides again ([`crate::services::retry`]). The steps the groups
//! share are in `base`.

mod base;
pub mod kept;
pub mod lists;
pub mod registration;
pub mod sectors;
pub mod states;

pub use base::BEFORE_COMMIT;
pub use kept::{create, update};
pub use lists::{account_managers, counts, details, dropdown, list, CustomerDetails, EntityCounts, PersonRef};
pub use registration::{email_available, register, registration_number_available, seed_profile};
pub use states::{activate_user, activate_with_link, activation_link_valid, approve, deactivate_user, resend_activation, set_user_active};
