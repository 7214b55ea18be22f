//! How every JSON request body becomes its Rust type, so that the server
//! accepts exactly what the OpenAPI document allows:
//! - a whole number written with a fraction of zero (`5.0`) is the integer
//!   it denotes (JSON Schema's `integer` admits it, and JavaScript clients
//!   may write it);
//! - an array is refused where an object (a struct or a map) is expected
//!   (serde's derive would otherwise read a struct from its fields in order);
//! - an integer is refused outside the range the document gives its type:
//!   utoipa documents `u8`/`u16`/`u32`/`i32` as `int32` and `u64`/`i64` as
//!   `int64`, so a `u32` above `i32::MAX` is refused as out of range (a
//!   generated client holds it in an `int32`).
//!
//! One deserializer over the parsed [`Value`] instead of a helper on each
//! integer field, so a new body type cannot forget it.

use serde::de::{self, DeserializeSeed, Deserializer, IntoDeserializer, MapAccess, SeqAccess, Unexpected, Visitor};
use serde_json::{Number, Value};

type Error = serde_json::Error;

/// `value` with every whole-number float (`5.0`, `-0.0`, `1e3`) that fits
/// an `i64`/`u64` written as that integer. Also what `serde_json::Value`
/// fields of a body (read by the domain's own number parsers) receive.
pub fn whole_numbers(value: &mut Value) {
    match value {
        Value::Number(n) if !n.is_i64() && !n.is_u64() => {
            if let Some(f) = n.as_f64().filter(|f| f.fract() == 0.0) {
                // Exact below 2^53; larger floats are whole but no longer
                // the number the client meant, so they stay floats (and an
                // integer field refuses them).
                if f.abs() <= 9_007_199_254_740_992.0 {
                    *n = Number::from(f as i64);
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(whole_numbers),
        Value::Object(map) => map.values_mut().for_each(whole_numbers),
        _ => {}
    }
}

/// A parsed body as the Rust types read it (see the module documentation).
/// Call [`whole_numbers`] on the value first ([`from_value`] does).
pub struct Strict(pub Value);

/// `T` from a parsed JSON body, under this module's rules; the error names
/// the field (`limit`, `profile.city`, `ids[2]`) where one is at fault.
pub fn from_value<T: de::DeserializeOwned>(mut value: Value) -> Result<T, serde_path_to_error::Error<Error>> {
    whole_numbers(&mut value);
    serde_path_to_error::deserialize(Strict(value))
}

impl Strict {
    fn integer<'de, V: Visitor<'de>>(self, visitor: V, min: i64, max: u64) -> Result<V::Value, Error> {
        let Value::Number(n) = &self.0 else { return self.0.deserialize_any(visitor) };
        if let Some(i) = n.as_i64() {
            if i >= min && (i < 0 || i as u64 <= max) {
                return if i < 0 { visitor.visit_i64(i) } else { visitor.visit_u64(i as u64) };
            }
            return Err(de::Error::invalid_value(Unexpected::Signed(i), &visitor));
        }
        if let Some(u) = n.as_u64() {
            if u <= max {
                return visitor.visit_u64(u);
            }
            return Err(de::Error::invalid_value(Unexpected::Unsigned(u), &visitor));
        }
        Err(de::Error::invalid_type(Unexpected::Float(n.as_f64().unwrap_or(f64::NAN)), &visitor))
    }
}

const INT32: u64 = i32::MAX as u64;
const INT64: u64 = i64::MAX as u64;

macro_rules! integers {
    ($($method:ident: $min:expr, $max:expr;)*) => {
        $(fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
            self.integer(visitor, $min, $max)
        })*
    };
}

macro_rules! as_value {
    ($($method:ident)*) => {
        $(fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
            self.0.$method(visitor)
        })*
    };
}

impl<'de> Deserializer<'de> for Strict {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.0 {
            Value::Array(items) => visitor.visit_seq(Seq(items.into_iter())),
            Value::Object(map) => visitor.visit_map(Map { entries: map.into_iter(), value: None }),
            other => other.deserialize_any(visitor),
        }
    }

    integers! {
        deserialize_u8: 0, u8::MAX as u64;
        deserialize_u16: 0, u16::MAX as u64;
        deserialize_u32: 0, INT32;
        deserialize_u64: 0, INT64;
        deserialize_i8: i8::MIN as i64, i8::MAX as u64;
        deserialize_i16: i16::MIN as i64, i16::MAX as u64;
        deserialize_i32: i32::MIN as i64, INT32;
        deserialize_i64: i64::MIN, INT64;
    }

    as_value! {
        deserialize_bool deserialize_f32 deserialize_f64 deserialize_char deserialize_str deserialize_string
        deserialize_bytes deserialize_byte_buf deserialize_unit deserialize_identifier
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.0 {
            Value::Null => visitor.visit_none(),
            _ => visitor.visit_some(self),
        }
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(self, name: &'static str, visitor: V) -> Result<V::Value, Error> {
        self.0.deserialize_unit_struct(name, visitor)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(self, _name: &'static str, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.0 {
            Value::Array(items) => visitor.visit_seq(Seq(items.into_iter())),
            other => other.deserialize_seq(visitor),
        }
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(self, _name: &'static str, _len: usize, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_seq(visitor)
    }

    /// Only an object is a map or a struct: never an array.
    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.0 {
            Value::Object(map) => visitor.visit_map(Map { entries: map.into_iter(), value: None }),
            Value::Array(_) => Err(de::Error::invalid_type(Unexpected::Seq, &visitor)),
            other => other.deserialize_map(visitor),
        }
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.deserialize_map(visitor)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.0.deserialize_enum(name, variants, visitor)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_unit()
    }
}

impl<'de> IntoDeserializer<'de, Error> for Strict {
    type Deserializer = Self;
    fn into_deserializer(self) -> Self {
        self
    }
}

struct Seq(std::vec::IntoIter<Value>);

impl<'de> SeqAccess<'de> for Seq {
    type Error = Error;
    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>, Error> {
        self.0.next().map(|v| seed.deserialize(Strict(v))).transpose()
    }
    fn size_hint(&self) -> Option<usize> {
        Some(self.0.len())
    }
}

struct Map {
    entries: serde_json::map::IntoIter,
    value: Option<Value>,
}

impl<'de> MapAccess<'de> for Map {
    type Error = Error;
    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, Error> {
        match self.entries.next() {
            Some((key, value)) => {
                self.value = Some(value);
                // As serde_json reads keys: a string, also for a map keyed by numbers.
                seed.deserialize(Value::String(key).into_deserializer()).map(Some)
            }
            None => Ok(None),
        }
    }
    fn next_value_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<T::Value, Error> {
        let value = self.value.take().ok_or_else(|| de::Error::custom("a map value without its key"))?;
        seed.deserialize(Strict(value))
    }
    fn size_hint(&self) -> Option<usize> {
        Some(self.entries.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;
    use serde_json::json;

    #[derive(Debug, Deserialize, PartialEq)]
    struct Inner {
        n: u8,
    }

    #[derive(Debug, Deserialize, PartialEq)]
    struct Body {
        count: u32,
        id: Option<u64>,
        #[serde(default)]
        inner: Option<Inner>,
        #[serde(default)]
        ids: Vec<u64>,
        #[serde(default)]
        price: f64,
        #[serde(default)]
        raw: Option<Value>,
    }

    #[derive(Debug, Deserialize, PartialEq)]
    struct Flat {
        #[serde(flatten)]
        body: Body,
        extra: Option<i32>,
    }

    fn read<T: de::DeserializeOwned>(v: Value) -> Result<T, String> {
        from_value(v).map_err(|e| format!("{}: {}", e.path(), e.inner()))
    }

    #[test]
    fn whole_numbers_written_as_floats_are_the_integers_they_denote() {
        let b: Body = read(json!({"count": 5.0, "id": 7.0, "inner": {"n": 2.0}, "ids": [1.0, 2], "price": 3.0, "raw": 4.0})).unwrap();
        assert_eq!((b.count, b.id, b.inner, b.ids, b.price), (5, Some(7), Some(Inner { n: 2 }), vec![1, 2], 3.0));
        assert_eq!(b.raw, Some(json!(4)), "a Value field gets the integer too");
        let f: Flat = read(json!({"count": 1e1, "extra": -3.0})).unwrap();
        assert_eq!((f.body.count, f.extra), (10, Some(-3)), "also through a flattened part");
        assert_eq!(read::<Body>(json!({"count": 5.5})).unwrap_err(), "count: invalid type: floating point `5.5`, expected u32");
        assert!(read::<Body>(json!({"count": 1e300})).is_err(), "a float beyond exact integers is no integer");
        assert_eq!(read::<Body>(json!({"count": 1, "price": 2.5})).unwrap().price, 2.5, "fractions stay where floats are read");
    }

    #[test]
    fn integers_outside_their_documented_format_are_refused() {
        assert_eq!(read::<Body>(json!({"count": 2147483647})).unwrap().count, i32::MAX as u32);
        let e = read::<Body>(json!({"count": 2147483648u64})).unwrap_err();
        assert!(e.starts_with("count: invalid value: integer `2147483648`"), "{e}");
        assert!(read::<Body>(json!({"count": -1})).unwrap_err().starts_with("count: invalid value"));
        assert!(read::<Body>(json!({"count": 1, "id": u64::MAX})).unwrap_err().starts_with("id: invalid value"));
        assert!(read::<Body>(json!({"count": 1, "inner": {"n": 256}})).unwrap_err().starts_with("inner.n: invalid value"));
        assert!(read::<Body>(json!({"count": 1, "ids": [1, -2]})).unwrap_err().starts_with("ids[1]: invalid value"));
    }

    #[test]
    fn arrays_are_refused_where_objects_are_expected() {
        let e = read::<Body>(json!([5, 1])).unwrap_err();
        assert!(e.contains("invalid type: sequence"), "{e}");
        assert!(read::<Body>(json!({"count": 1, "inner": [2]})).unwrap_err().starts_with("inner: invalid type: sequence"));
        assert!(read::<Flat>(json!([1])).is_err(), "a struct with a flattened part too");
        assert!(read::<std::collections::HashMap<String, u32>>(json!([["a", 1]])).is_err());
        assert!(read::<Body>(json!({"count": 1, "ids": {"0": 1}})).is_err(), "an object is no array either");
        let m: std::collections::HashMap<String, u32> = read(json!({"a": 1.0})).unwrap();
        assert_eq!(m["a"], 1);
    }
}
