//! warcsift: stream web archives and keep the main text of every HTML page.
//!
//! The module tree reads as the pipeline, one stage per module, each a plain function or
//! iterator over the previous stage's output:
//!
//! ```text
//! input ──▶ record ──▶ http ──▶ charset ──▶ tokenize ──▶ doc ──▶ extract::<method> ──▶ output
//! bytes     WARC        HTTP      UTF-8       tokens       features   kept text           shards
//!           records     payload   text                     (elements,
//!                                                          segments)
//! ```
//!
//! [`pipeline`] wires the stages together across threads (reader → workers → ordered writer),
//! [`stats`] counts what happened, [`eval`] scores methods against gold text, and [`cli`] turns
//! command-line flags into a resolved configuration that the rest of the program reads.

pub mod arc;
pub mod charset;
pub mod cli;
pub mod corpus;
pub mod doc;
pub mod eval;
pub mod explain;
pub mod extract;
pub mod http;
mod inflate;
pub mod input;
pub mod lang;
pub mod manifest;
pub mod markdown;
pub mod merge;
pub mod metadata;
pub mod mojibake;
pub mod output;
pub mod page_type;
pub mod pipeline;
pub mod react_stream;
pub mod record;
pub mod records;
pub mod resume;
mod script;
pub mod stats;
pub mod structured;
mod swar;
pub mod task;
pub mod tokenize;
