//! `report.html`: `report.md` as one self-contained page — the plots embedded as PNG data URIs,
//! a contents list and a stylesheet — so that it opens offline, from a mail attachment or a CI
//! artefact, without the `plots/` directory beside it.

use std::path::Path;

use base64::Engine as _;
use pulldown_cmark::{CowStr, Event, HeadingLevel, Options, Parser, Tag, TagEnd, html};

use super::error::ReportError;

/// The width of the page's text column in CSS pixels: the page is this plus its 2 rem margins,
/// 1200 px in all. Plots are drawn this wide by default, so that they fill the column at their
/// own size, their text neither shrunk nor blurred.
pub(crate) const CONTENT_WIDTH: u32 = 1136;

/// The stylesheet: readable tables (numbers right-aligned by the Markdown's own alignment, they
/// and the labels of the first column never broken across lines, so that a label such as
/// `gp-ucb(ucb_multiplier=2)` does not wrap at its hyphen; tables scrolling sideways rather than
/// squeezing), plots as wide as the text column.
fn style() -> String {
    format!(
        "
body {{ font-family: system-ui, -apple-system, 'Segoe UI', sans-serif; line-height: 1.45;
       max-width: {CONTENT_WIDTH}px; margin: 0 auto; padding: 1rem 2rem 4rem; color: #1b1b1b; }}
h1 {{ border-bottom: 2px solid #ccc; padding-bottom: .3rem; }}
h2 {{ margin-top: 2.5rem; border-bottom: 1px solid #ddd; padding-bottom: .2rem; }}
nav ol {{ columns: 2; }}
.table {{ overflow-x: auto; margin: 1rem 0; }}
table {{ border-collapse: collapse; font-size: .85rem; }}
th, td {{ border: 1px solid #d0d0d0; padding: .25rem .45rem; }}
th {{ background: #f0f0f0; }}
td:first-child {{ white-space: nowrap; }}
td[style*='right'] {{ white-space: nowrap; font-variant-numeric: tabular-nums; }}
tr:nth-child(even) td {{ background: #fafafa; }}
code {{ font-family: ui-monospace, 'SFMono-Regular', Menlo, monospace; font-size: .88em; }}
pre {{ background: #f6f6f6; padding: .8rem; overflow-x: auto; border-radius: 4px; }}
img {{ width: 100%; height: auto; display: block; margin: 1rem 0; }}
"
    )
}

/// Renders `markdown` (the report of the sweep directory `dir`, whose images are paths relative
/// to it) as a complete HTML page. Images are read from `dir` and embedded; links stay relative.
pub(crate) fn render(dir: &Path, markdown: &str) -> Result<String, ReportError> {
    // The report never means raw HTML: a `<` in a label or directory name is text.
    let events: Vec<Event> = Parser::new_ext(markdown, Options::ENABLE_TABLES)
        .map(|event| match event {
            Event::Html(raw) | Event::InlineHtml(raw) => Event::Text(raw),
            other => other,
        })
        .collect();
    let headings = section_headings(&events);
    let title = events
        .iter()
        .skip_while(|e| !matches!(e, Event::Start(Tag::Heading { level, .. }) if *level == HeadingLevel::H1))
        .take_while(|e| !matches!(e, Event::End(TagEnd::Heading(_))))
        .filter_map(text_of)
        .collect::<String>();

    let mut body = Vec::with_capacity(events.len());
    let mut sections = headings.iter();
    for event in events {
        match event {
            Event::Start(Tag::Heading {
                level: HeadingLevel::H2,
                classes,
                attrs,
                ..
            }) => {
                let (id, _) = sections.next().expect("one id per section heading");
                body.push(Event::Start(Tag::Heading {
                    level: HeadingLevel::H2,
                    id: Some(CowStr::from(id.clone())),
                    classes,
                    attrs,
                }));
            }
            Event::End(TagEnd::Heading(HeadingLevel::H1)) => {
                body.push(event);
                body.push(Event::Html(contents(&headings).into()));
            }
            Event::Start(Tag::Table(_)) => {
                body.push(Event::Html("<div class=\"table\">".into()));
                body.push(event);
            }
            Event::End(TagEnd::Table) => {
                body.push(event);
                body.push(Event::Html("</div>".into()));
            }
            Event::Start(Tag::Image {
                link_type,
                dest_url,
                title,
                id,
            }) => body.push(Event::Start(Tag::Image {
                link_type,
                dest_url: embedded(dir, &dest_url)?.into(),
                title,
                id,
            })),
            other => body.push(other),
        }
    }
    let mut page = format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <meta name=\"generator\" content=\"bosweep {}\">\n<title>{}</title>\n<style>{}</style>\n\
         </head>\n<body>\n",
        env!("CARGO_PKG_VERSION"),
        escape(&title),
        style(),
    );
    html::push_html(&mut page, body.into_iter());
    page.push_str("</body>\n</html>\n");
    Ok(page)
}

/// The text of an event inside a heading (plain or code spans).
fn text_of<'a>(event: &'a Event) -> Option<&'a str> {
    match event {
        Event::Text(t) | Event::Code(t) => Some(t),
        _ => None,
    }
}

/// Each second-level heading's anchor (`section-1`, …) and text, in order.
fn section_headings(events: &[Event]) -> Vec<(String, String)> {
    let mut headings = Vec::new();
    let mut open: Option<String> = None;
    for event in events {
        match event {
            Event::Start(Tag::Heading {
                level: HeadingLevel::H2,
                ..
            }) => open = Some(String::new()),
            Event::End(TagEnd::Heading(HeadingLevel::H2)) => {
                let text = open.take().unwrap_or_default();
                headings.push((format!("section-{}", headings.len() + 1), text));
            }
            e => {
                if let (Some(text), Some(t)) = (open.as_mut(), text_of(e)) {
                    text.push_str(t);
                }
            }
        }
    }
    headings
}

/// The contents list linking every section.
fn contents(headings: &[(String, String)]) -> String {
    let items: String = headings
        .iter()
        .map(|(id, text)| format!("<li><a href=\"#{id}\">{}</a></li>", escape(text)))
        .collect();
    format!("<nav><h2>Contents</h2><ol>{items}</ol></nav>\n")
}

/// `url` (a PNG or SVG under `dir`) as a data URI; other URLs unchanged.
fn embedded(dir: &Path, url: &str) -> Result<String, ReportError> {
    let mime = if url.ends_with(".png") {
        "image/png"
    } else if url.ends_with(".svg") {
        "image/svg+xml"
    } else {
        return Ok(url.to_owned());
    };
    let path = dir.join(url);
    let bytes = std::fs::read(&path).map_err(|source| ReportError::Embed { path, source })?;
    let data = base64::engine::general_purpose::STANDARD.encode(bytes);
    Ok(format!("data:{mime};base64,{data}"))
}

/// `text` with HTML's special characters escaped, for the title and the contents list.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_embeds_images_lists_sections_and_wraps_tables() {
        let dir = std::env::temp_dir().join(format!("bosweep-html-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("plots")).unwrap();
        std::fs::write(dir.join("plots/a.png"), [0x89, b'P', b'N', b'G']).unwrap();
        let markdown = "# Sweep report: <q>\n\n## Problem `branin`\n\n| a | b |\n|---|--:|\n| x | 1 |\n\n\
                        ![regret](plots/a.png) [SVG](plots/a.svg)\n\n## Across problems\n\ntext\n";
        let page = render(&dir, markdown).unwrap();
        assert!(
            page.contains("<title>Sweep report: &lt;q&gt;</title>"),
            "{page}"
        );
        assert!(page.contains(
            "<nav><h2>Contents</h2><ol><li><a href=\"#section-1\">Problem branin</a></li>\
             <li><a href=\"#section-2\">Across problems</a></li></ol></nav>"
        ));
        assert!(page.contains("<h2 id=\"section-1\">Problem <code>branin</code></h2>"));
        assert!(page.contains("<div class=\"table\"><table>"));
        assert!(page.contains("<td style=\"text-align: right\">1</td>"));
        // The four bytes, base64-encoded; the SVG link stays a relative link.
        assert!(page.contains("<img src=\"data:image/png;base64,iVBORw==\" alt=\"regret\""));
        assert!(page.contains("<a href=\"plots/a.svg\">SVG</a>"));
        // Labels (the first column) stay on one line.
        assert!(page.contains("td:first-child { white-space: nowrap; }"));
        // Plots fill the text column, as wide as they are drawn by default.
        assert!(page.contains("img { width: 100%; height: auto;"));
        assert!(page.contains("max-width: 1136px;"));

        // A missing image names its file.
        let err = render(&dir, "![gone](plots/gone.png)").unwrap_err();
        assert!(err.to_string().contains("plots/gone.png"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
