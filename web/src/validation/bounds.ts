/**
 * How long a text and how large a number may be, the API's limits (shared/src/domain/text.rs and the
 * domain modules named): the forms cap their inputs with these, so a value the server refuses cannot be typed.
 */

/** Names of people, companies, packages, plans, named-list entries, envelopes (text::NAME_MAX). */
export const NAME_MAX_CHARS = 200;
/** A business sector's name (customer::check_sector_name). */
export const SECTOR_NAME_MAX_CHARS = 100;
/** Subjects of cases and support tickets (text::SUBJECT_MAX). */
export const SUBJECT_MAX_CHARS = 300;
/** Descriptions, notes, messages (text::LONG_MAX). */
export const LONG_TEXT_MAX_CHARS = 10_000;
/** Terms and privacy, each language (legal::TEXT_MAX_CHARS); counted in characters (code points) as the server does. */
export const LEGAL_TEXT_MAX_CHARS = 100_000;
/** E-mail addresses (text::EMAIL_MAX). */
export const EMAIL_MAX_CHARS = 254;
/** A rating's comment (rating::COMMENT_MAX_CHARS). */
export const COMMENT_MAX_CHARS = 2000;
/** Academy lessons (academy::{TOPIC,TITLE,TEXT}_MAX_CHARS). */
export const LESSON_TOPIC_MAX_CHARS = 100;
export const LESSON_TITLE_MAX_CHARS = 200;
export const LESSON_TEXT_MAX_CHARS = 20_000;
/** An identity number as typed: 12 digits with the century, a dash, and room for stray spaces. */
export const IDENTITY_NUMBER_MAX_CHARS = 15;

/** New passwords: 8 to 128 characters (the API's password policy). */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;

/** Hours and hourly rates: at least one hundredth (catalogue::Hundredths). */
export const HOURS_MIN = 0.01;
export const HOURLY_RATE_MIN = 0.01;
/** A package's or plan's length in days (catalogue::MAX_DAYS). */
export const DAYS_MIN = 1;
export const DAYS_MAX = 3650;
