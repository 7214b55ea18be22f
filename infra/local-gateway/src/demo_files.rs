//! Small but real demo files (a one-page PDF, a Word document, an Excel
//! workbook, a PowerPoint presentation, a PNG image), built in memory: the
//! demo documents on cases and the seeded templates are made of them.

use std::io::Write;

use shared::error::ApiError;

/// The bytes of a demo file by its extension.
pub fn file_bytes(name: &str, text: &str) -> Result<Vec<u8>, ApiError> {
    match name.rsplit_once('.').map(|(_, ext)| ext) {
        Some("pdf") => Ok(pdf(text)),
        Some("docx") => docx(text),
        Some("xlsx") => xlsx(text),
        Some("pptx") => pptx(text),
        Some("png") => Ok(PNG.to_vec()),
        _ => Err(ApiError::internal(format!("no demo bytes for {name}"))),
    }
}

/// An 8×8 dark-blue PNG (signature, IHDR, IDAT, IEND with their CRCs).
const PNG: &[u8] = &[
    0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00, 0x00, 0x08, 0x00, 0x00,
    0x00, 0x08, 0x08, 0x02, 0x00, 0x00, 0x00, 0x4B, 0x6D, 0x29, 0xDC, 0x00, 0x00, 0x00, 0x11, 0x49, 0x44, 0x41, 0x54, 0x78, 0xDA, 0x63,
    0x90, 0xB7, 0x8A, 0xC1, 0x8A, 0x18, 0x86, 0x96, 0x04, 0x00, 0x9F, 0x87, 0x2D, 0x41, 0x51, 0x78, 0xA5, 0x35, 0x00, 0x00, 0x00, 0x00,
    0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82,
];

/// A one-page A4 PDF showing `text` (Helvetica, WinAnsi: Swedish letters
/// are Latin-1), with a correct cross-reference table.
pub fn pdf(text: &str) -> Vec<u8> {
    let mut line = Vec::new();
    for ch in text.chars() {
        let b = u8::try_from(u32::from(ch)).unwrap_or(b'?');
        if matches!(b, b'(' | b')' | b'\\') {
            line.push(b'\\');
        }
        line.push(b);
    }
    let mut content = b"BT /F1 16 Tf 72 770 Td (".to_vec();
    content.extend_from_slice(&line);
    content.extend_from_slice(b") Tj ET");
    let mut stream = format!("<< /Length {} >>\nstream\n", content.len()).into_bytes();
    stream.extend_from_slice(&content);
    stream.extend_from_slice(b"\nendstream");
    let objects: [Vec<u8>; 5] = [
        b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_vec(),
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>".to_vec(),
        stream,
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>".to_vec(),
    ];
    let mut out = b"%PDF-1.4\n".to_vec();
    let mut offsets = Vec::new();
    for (i, o) in objects.iter().enumerate() {
        offsets.push(out.len());
        out.extend_from_slice(format!("{} 0 obj\n", i + 1).as_bytes());
        out.extend_from_slice(o);
        out.extend_from_slice(b"\nendobj\n");
    }
    let xref = out.len();
    out.extend_from_slice(format!("xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1).as_bytes());
    for o in offsets {
        out.extend_from_slice(format!("{o:010} 00000 n \n").as_bytes());
    }
    out.extend_from_slice(format!("trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n", objects.len() + 1).as_bytes());
    out
}

fn xml_escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

/// The smallest Word document Word opens: content types, the package
/// relationship and one paragraph.
pub fn docx(text: &str) -> Result<Vec<u8>, ApiError> {
    let parts = [
        (
            "[Content_Types].xml",
            r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>"#.to_string(),
        ),
        (
            "_rels/.rels",
            r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>"#.to_string(),
        ),
        (
            "word/document.xml",
            format!(
                r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>{}</w:t></w:r></w:p></w:body></w:document>"#,
                xml_escape(text)
            ),
        ),
    ];
    zip_parts(&parts)
}

const PML: &str = r#"xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main""#;
const XML_HEAD: &str = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>"#;
const GROUP: &str = r#"<p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr/>"#;

/// A package relationships part: (id, type under officeDocument/2006/relationships/, target).
fn rels(items: &[(&str, &str, &str)]) -> String {
    let mut s = format!(r#"{XML_HEAD}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">"#);
    for (id, kind, target) in items {
        s.push_str(&format!(
            r#"<Relationship Id="{id}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/{kind}" Target="{target}"/>"#
        ));
    }
    s + "</Relationships>"
}

fn zip_parts(parts: &[(&str, String)]) -> Result<Vec<u8>, ApiError> {
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for (name, body) in parts {
        zip.start_file(*name, zip::write::SimpleFileOptions::default()).map_err(ApiError::internal)?;
        zip.write_all(body.as_bytes()).map_err(ApiError::internal)?;
    }
    Ok(zip.finish().map_err(ApiError::internal)?.into_inner())
}

/// A one-slide presentation showing `text`: the parts PowerPoint requires
/// (presentation, slide, layout, master and a theme with its three schemes).
pub fn pptx(text: &str) -> Result<Vec<u8>, ApiError> {
    let ct = |part: &str, kind: &str| {
        format!(r#"<Override PartName="/ppt/{part}" ContentType="application/vnd.openxmlformats-officedocument.{kind}+xml"/>"#)
    };
    let types = format!(
        r#"{XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>{}{}{}{}{}</Types>"#,
        ct("presentation.xml", "presentationml.presentation.main"),
        ct("slides/slide1.xml", "presentationml.slide"),
        ct("slideLayouts/slideLayout1.xml", "presentationml.slideLayout"),
        ct("slideMasters/slideMaster1.xml", "presentationml.slideMaster"),
        ct("theme/theme1.xml", "theme"),
    );
    let presentation = format!(
        r#"{XML_HEAD}<p:presentation {PML}><p:sldMasterIdLst><p:sldMasterId id="2147483648" r:id="rId1"/></p:sldMasterIdLst><p:sldIdLst><p:sldId id="256" r:id="rId2"/></p:sldIdLst><p:sldSz cx="12192000" cy="6858000"/><p:notesSz cx="6858000" cy="9144000"/></p:presentation>"#
    );
    let slide = format!(
        r#"{XML_HEAD}<p:sld {PML}><p:cSld><p:spTree>{GROUP}<p:sp><p:nvSpPr><p:cNvPr id="2" name="Title"/><p:cNvSpPr txBox="1"/><p:nvPr/></p:nvSpPr><p:spPr><a:xfrm><a:off x="838200" y="2743200"/><a:ext cx="10515600" cy="1325563"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></p:spPr><p:txBody><a:bodyPr/><a:lstStyle/><a:p><a:r><a:rPr lang="sv-SE" sz="4000"/><a:t>{}</a:t></a:r></a:p></p:txBody></p:sp></p:spTree></p:cSld><p:clrMapOvr><a:masterClrMapping/></p:clrMapOvr></p:sld>"#,
        xml_escape(text)
    );
    let layout = format!(
        r#"{XML_HEAD}<p:sldLayout {PML} type="blank" preserve="1"><p:cSld name="Blank"><p:spTree>{GROUP}</p:spTree></p:cSld><p:clrMapOvr><a:masterClrMapping/></p:clrMapOvr></p:sldLayout>"#
    );
    let master = format!(
        r#"{XML_HEAD}<p:sldMaster {PML}><p:cSld><p:bg><p:bgRef idx="1001"><a:schemeClr val="bg1"/></p:bgRef></p:bg><p:spTree>{GROUP}</p:spTree></p:cSld><p:clrMap bg1="lt1" tx1="dk1" bg2="lt2" tx2="dk2" accent1="accent1" accent2="accent2" accent3="accent3" accent4="accent4" accent5="accent5" accent6="accent6" hlink="hlink" folHlink="folHlink"/><p:sldLayoutIdLst><p:sldLayoutId id="2147483649" r:id="rId1"/></p:sldLayoutIdLst></p:sldMaster>"#
    );
    let mut colours = String::from(
        r#"<a:dk1><a:sysClr val="windowText" lastClr="000000"/></a:dk1><a:lt1><a:sysClr val="window" lastClr="FFFFFF"/></a:lt1>"#,
    );
    for (name, rgb) in [
        ("dk2", "44546A"),
        ("lt2", "E7E6E6"),
        ("accent1", "4472C4"),
        ("accent2", "ED7D31"),
        ("accent3", "A5A5A5"),
        ("accent4", "FFC000"),
        ("accent5", "5B9BD5"),
        ("accent6", "70AD47"),
        ("hlink", "0563C1"),
        ("folHlink", "954F72"),
    ] {
        colours.push_str(&format!(r#"<a:{name}><a:srgbClr val="{rgb}"/></a:{name}>"#));
    }
    let font = r#"<a:latin typeface="Calibri"/><a:ea typeface=""/><a:cs typeface=""/>"#;
    let solid = r#"<a:solidFill><a:schemeClr val="phClr"/></a:solidFill>"#.repeat(3);
    let line = r#"<a:ln w="6350"><a:solidFill><a:schemeClr val="phClr"/></a:solidFill></a:ln>"#.repeat(3);
    let effect = "<a:effectStyle><a:effectLst/></a:effectStyle>".repeat(3);
    let theme = format!(
        r#"{XML_HEAD}<a:theme xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" name="Office"><a:themeElements><a:clrScheme name="Office">{colours}</a:clrScheme><a:fontScheme name="Office"><a:majorFont>{font}</a:majorFont><a:minorFont>{font}</a:minorFont></a:fontScheme><a:fmtScheme name="Office"><a:fillStyleLst>{solid}</a:fillStyleLst><a:lnStyleLst>{line}</a:lnStyleLst><a:effectStyleLst>{effect}</a:effectStyleLst><a:bgFillStyleLst>{solid}</a:bgFillStyleLst></a:fmtScheme></a:themeElements><a:objectDefaults/><a:extraClrSchemeLst/></a:theme>"#
    );
    zip_parts(&[
        ("[Content_Types].xml", types),
        ("_rels/.rels", rels(&[("rId1", "officeDocument", "ppt/presentation.xml")])),
        ("ppt/presentation.xml", presentation),
        (
            "ppt/_rels/presentation.xml.rels",
            rels(&[
                ("rId1", "slideMaster", "slideMasters/slideMaster1.xml"),
                ("rId2", "slide", "slides/slide1.xml"),
                ("rId3", "theme", "theme/theme1.xml"),
            ]),
        ),
        ("ppt/slides/slide1.xml", slide),
        ("ppt/slides/_rels/slide1.xml.rels", rels(&[("rId1", "slideLayout", "../slideLayouts/slideLayout1.xml")])),
        ("ppt/slideLayouts/slideLayout1.xml", layout),
        ("ppt/slideLayouts/_rels/slideLayout1.xml.rels", rels(&[("rId1", "slideMaster", "../slideMasters/slideMaster1.xml")])),
        ("ppt/slideMasters/slideMaster1.xml", master),
        (
            "ppt/slideMasters/_rels/slideMaster1.xml.rels",
            rels(&[("rId1", "slideLayout", "../slideLayouts/slideLayout1.xml"), ("rId2", "theme", "../theme/theme1.xml")]),
        ),
        ("ppt/theme/theme1.xml", theme),
    ])
}

/// A workbook with `text` as its heading and a few rows of hours.
pub fn xlsx(text: &str) -> Result<Vec<u8>, ApiError> {
    let mut book = rust_xlsxwriter::Workbook::new();
    let sheet = book.add_worksheet();
    let rows: [(&str, f64); 3] = [("Genomgång av handlingarna", 2.5), ("Brev till motparten", 1.25), ("Telefonmöte", 1.0)];
    sheet.write(0, 0, text).map_err(ApiError::internal)?;
    for (i, (what, hours)) in rows.iter().enumerate() {
        let row = i as u32 + 2;
        sheet.write(row, 0, *what).map_err(ApiError::internal)?;
        sheet.write(row, 1, *hours).map_err(ApiError::internal)?;
    }
    book.save_to_buffer().map_err(ApiError::internal)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pdf_cross_reference_points_at_its_objects() {
        let p = pdf("Avtal (utkast) för Åsa");
        let text = String::from_utf8_lossy(&p);
        let xref: usize = text.rsplit("startxref\n").next().unwrap().lines().next().unwrap().parse().unwrap();
        assert!(p[xref..].starts_with(b"xref"));
        // Offsets are in bytes (the page text is Latin-1, not UTF-8).
        for (i, line) in String::from_utf8_lossy(&p[xref..]).lines().skip(3).take(5).enumerate() {
            let at: usize = line[..10].parse().unwrap();
            assert!(p[at..].starts_with(format!("{} 0 obj", i + 1).as_bytes()), "object {}", i + 1);
        }
        // Latin-1 in the page's text, brackets escaped.
        assert!(p.windows(3).any(|w| w == [b' ', 0xC5, b's']));
        assert!(text.contains("Avtal \\(utkast\\)"));
    }

    #[test]
    fn the_office_files_are_zips_with_their_main_part() {
        let d = docx("Yttrande & svar").unwrap();
        let mut z = zip::ZipArchive::new(std::io::Cursor::new(d)).unwrap();
        let mut body = String::new();
        std::io::Read::read_to_string(&mut z.by_name("word/document.xml").unwrap(), &mut body).unwrap();
        assert!(body.contains("Yttrande &amp; svar"));
        let x = xlsx("Tid").unwrap();
        let mut z = zip::ZipArchive::new(std::io::Cursor::new(x)).unwrap();
        assert!(z.by_name("xl/worksheets/sheet1.xml").is_ok());
        // Every relationship of the presentation points at a part it holds.
        let mut z = zip::ZipArchive::new(std::io::Cursor::new(pptx("Genomgång").unwrap())).unwrap();
        let names: Vec<String> = z.file_names().map(|n| n.unwrap().into_owned()).collect();
        for rels in names.iter().filter(|n| n.ends_with(".rels")) {
            let mut body = String::new();
            std::io::Read::read_to_string(&mut z.by_name(rels).unwrap(), &mut body).unwrap();
            let dir = rels.trim_end_matches(".rels").rsplit_once("_rels/").map_or("", |(d, _)| d).to_string();
            for target in body.split("Target=\"").skip(1).map(|t| t.split('"').next().unwrap()) {
                let mut path: Vec<&str> = dir.split('/').filter(|p| !p.is_empty()).collect();
                for seg in target.split('/') {
                    if seg == ".." {
                        path.pop();
                    } else {
                        path.push(seg);
                    }
                }
                assert!(names.contains(&path.join("/")), "{rels} → {target}");
            }
        }
    }
}
