//! Writing a sweep's runs in other tools' formats, so that their post-processing applies.

mod coco;

pub use coco::{CocoExport, ExportError, export_coco};
