//! Writing a sweep's runs in other tools' formats, so that their post-processing applies.

mod coco;
mod coco_biobj;
mod coco_common;

pub use coco::{CocoExport, SuiteExport, export_coco};
pub use coco_common::ExportError;
