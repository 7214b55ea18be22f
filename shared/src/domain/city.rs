//! The city list of spec §7 `city/list/`: Sweden's 290 municipalities
//! (kommuner, Statistics Sweden's list), by county. Customers' addresses are
//! Swedish (country 1, spec §3/§5) and their city field stays free text (a
//! locality inside a municipality is a right answer too); this list only
//! suggests spellings as the user types.

use serde::Serialize;
use utoipa::ToSchema;

/// One municipality and its county, as Swedes write them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
pub struct City {
    pub name: &'static str,
    pub county: &'static str,
}

const COUNTIES: [(&str, &[&str]); 21] = [
    (
        "Stockholms län",
        &[
            "Botkyrka",
            "Danderyd",
            "Ekerö",
            "Haninge",
            "Huddinge",
            "Järfälla",
            "Lidingö",
            "Nacka",
            "Norrtälje",
            "Nykvarn",
            "Nynäshamn",
            "Salem",
            "Sigtuna",
            "Sollentuna",
            "Solna",
            "Stockholm",
            "Sundbyberg",
            "Södertälje",
            "Tyresö",
            "Täby",
            "Upplands Väsby",
            "Upplands-Bro",
            "Vallentuna",
            "Vaxholm",
            "Värmdö",
            "Österåker",
        ],
    ),
    ("Uppsala län", &["Enköping", "Heby", "Håbo", "Knivsta", "Tierp", "Uppsala", "Älvkarleby", "Östhammar"]),
    ("Södermanlands län", &["Eskilstuna", "Flen", "Gnesta", "Katrineholm", "Nyköping", "Oxelösund", "Strängnäs", "Trosa", "Vingåker"]),
    (
        "Östergötlands län",
        &[
            "Boxholm",
            "Finspång",
            "Kinda",
            "Linköping",
            "Mjölby",
            "Motala",
            "Norrköping",
            "Söderköping",
            "Vadstena",
            "Valdemarsvik",
            "Ydre",
            "Åtvidaberg",
            "Ödeshög",
        ],
    ),
    (
        "Jönköpings län",
        &[
            "Aneby",
            "Eksjö",
            "Gislaved",
            "Gnosjö",
            "Habo",
            "Jönköping",
            "Mullsjö",
            "Nässjö",
            "Sävsjö",
            "Tranås",
            "Vaggeryd",
            "Vetlanda",
            "Värnamo",
        ],
    ),
    ("Kronobergs län", &["Alvesta", "Lessebo", "Ljungby", "Markaryd", "Tingsryd", "Uppvidinge", "Växjö", "Älmhult"]),
    (
        "Kalmar län",
        &[
            "Borgholm",
            "Emmaboda",
            "Hultsfred",
            "Högsby",
            "Kalmar",
            "Mönsterås",
            "Mörbylånga",
            "Nybro",
            "Oskarshamn",
            "Torsås",
            "Vimmerby",
            "Västervik",
        ],
    ),
    ("Gotlands län", &["Gotland"]),
    ("Blekinge län", &["Karlshamn", "Karlskrona", "Olofström", "Ronneby", "Sölvesborg"]),
    (
        "Skåne län",
        &[
            "Bjuv",
            "Bromölla",
            "Burlöv",
            "Båstad",
            "Eslöv",
            "Helsingborg",
            "Hässleholm",
            "Höganäs",
            "Hörby",
            "Höör",
            "Klippan",
            "Kristianstad",
            "Kävlinge",
            "Landskrona",
            "Lomma",
            "Lund",
            "Malmö",
            "Osby",
            "Perstorp",
            "Simrishamn",
            "Sjöbo",
            "Skurup",
            "Staffanstorp",
            "Svalöv",
            "Svedala",
            "Tomelilla",
            "Trelleborg",
            "Vellinge",
            "Ystad",
            "Åstorp",
            "Ängelholm",
            "Örkelljunga",
            "Östra Göinge",
        ],
    ),
    ("Hallands län", &["Falkenberg", "Halmstad", "Hylte", "Kungsbacka", "Laholm", "Varberg"]),
    (
        "Västra Götalands län",
        &[
            "Ale",
            "Alingsås",
            "Bengtsfors",
            "Bollebygd",
            "Borås",
            "Dals-Ed",
            "Essunga",
            "Falköping",
            "Färgelanda",
            "Grästorp",
            "Gullspång",
            "Göteborg",
            "Götene",
            "Herrljunga",
            "Hjo",
            "Härryda",
            "Karlsborg",
            "Kungälv",
            "Lerum",
            "Lidköping",
            "Lilla Edet",
            "Lysekil",
            "Mariestad",
            "Mark",
            "Mellerud",
            "Munkedal",
            "Mölndal",
            "Orust",
            "Partille",
            "Skara",
            "Skövde",
            "Sotenäs",
            "Stenungsund",
            "Strömstad",
            "Svenljunga",
            "Tanum",
            "Tibro",
            "Tidaholm",
            "Tjörn",
            "Tranemo",
            "Trollhättan",
            "Töreboda",
            "Uddevalla",
            "Ulricehamn",
            "Vara",
            "Vårgårda",
            "Vänersborg",
            "Åmål",
            "Öckerö",
        ],
    ),
    (
        "Värmlands län",
        &[
            "Arvika",
            "Eda",
            "Filipstad",
            "Forshaga",
            "Grums",
            "Hagfors",
            "Hammarö",
            "Karlstad",
            "Kil",
            "Kristinehamn",
            "Munkfors",
            "Storfors",
            "Sunne",
            "Säffle",
            "Torsby",
            "Årjäng",
        ],
    ),
    (
        "Örebro län",
        &[
            "Askersund",
            "Degerfors",
            "Hallsberg",
            "Hällefors",
            "Karlskoga",
            "Kumla",
            "Laxå",
            "Lekeberg",
            "Lindesberg",
            "Ljusnarsberg",
            "Nora",
            "Örebro",
        ],
    ),
    (
        "Västmanlands län",
        &["Arboga", "Fagersta", "Hallstahammar", "Kungsör", "Köping", "Norberg", "Sala", "Skinnskatteberg", "Surahammar", "Västerås"],
    ),
    (
        "Dalarnas län",
        &[
            "Avesta",
            "Borlänge",
            "Falun",
            "Gagnef",
            "Hedemora",
            "Leksand",
            "Ludvika",
            "Malung-Sälen",
            "Mora",
            "Orsa",
            "Rättvik",
            "Smedjebacken",
            "Säter",
            "Vansbro",
            "Älvdalen",
        ],
    ),
    (
        "Gävleborgs län",
        &["Bollnäs", "Gävle", "Hofors", "Hudiksvall", "Ljusdal", "Nordanstig", "Ockelbo", "Ovanåker", "Sandviken", "Söderhamn"],
    ),
    ("Västernorrlands län", &["Härnösand", "Kramfors", "Sollefteå", "Sundsvall", "Timrå", "Ånge", "Örnsköldsvik"]),
    ("Jämtlands län", &["Berg", "Bräcke", "Härjedalen", "Krokom", "Ragunda", "Strömsund", "Åre", "Östersund"]),
    (
        "Västerbottens län",
        &[
            "Bjurholm",
            "Dorotea",
            "Lycksele",
            "Malå",
            "Nordmaling",
            "Norsjö",
            "Robertsfors",
            "Skellefteå",
            "Sorsele",
            "Storuman",
            "Umeå",
            "Vilhelmina",
            "Vindeln",
            "Vännäs",
            "Åsele",
        ],
    ),
    (
        "Norrbottens län",
        &[
            "Arjeplog",
            "Arvidsjaur",
            "Boden",
            "Gällivare",
            "Haparanda",
            "Jokkmokk",
            "Kalix",
            "Kiruna",
            "Luleå",
            "Pajala",
            "Piteå",
            "Älvsbyn",
            "Överkalix",
            "Övertorneå",
        ],
    ),
];

/// Upper bound of a search text (longer names nothing).
pub const SEARCH_MAX: usize = 100;

/// Municipalities whose name contains `search` (case-insensitive; every one
/// when empty), in Swedish alphabetical order (å, ä, ö last).
pub fn cities(search: Option<&str>) -> Vec<City> {
    let needle = search.unwrap_or_default().trim().to_lowercase();
    if needle.chars().count() > SEARCH_MAX {
        return vec![];
    }
    let mut out: Vec<City> = COUNTIES
        .iter()
        .flat_map(|(county, names)| names.iter().map(|name| City { name, county }))
        .filter(|c| c.name.to_lowercase().contains(&needle))
        .collect();
    out.sort_by_key(|c| swedish_key(c.name));
    out
}

/// Sorting key for the Swedish alphabet: å, ä, ö come after z.
fn swedish_key(name: &str) -> Vec<u32> {
    name.to_lowercase()
        .chars()
        .map(|ch| match ch {
            'å' => 'z' as u32 + 1,
            'ä' => 'z' as u32 + 2,
            'ö' => 'z' as u32 + 3,
            other => other as u32,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_municipality_once_in_swedish_order() {
        let all = cities(None);
        assert_eq!(all.len(), 290);
        let mut names: Vec<&str> = all.iter().map(|c| c.name).collect();
        names.dedup();
        assert_eq!(names.len(), 290, "a name twice");
        assert_eq!(all.first().unwrap().name, "Ale");
        assert_eq!(all.last().unwrap().name, "Övertorneå");
        let pos = |n: &str| names.iter().position(|x| *x == n).unwrap();
        assert!(pos("Vaxholm") < pos("Åmål") && pos("Åmål") < pos("Älmhult") && pos("Älmhult") < pos("Öckerö"));
    }

    #[test]
    fn search_is_case_insensitive_and_bounded() {
        let found: Vec<&str> = cities(Some(" göte")).iter().map(|c| c.name).collect();
        assert_eq!(found, ["Göteborg", "Götene"]);
        assert_eq!(cities(Some("MALMÖ")), [City { name: "Malmö", county: "Skåne län" }]);
        assert!(cities(Some("Atlantis")).is_empty());
        assert!(cities(Some(&"a".repeat(SEARCH_MAX + 1))).is_empty());
    }
}
