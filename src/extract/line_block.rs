//! (being written)

use super::Method;

/// The methods of this file, as `--algorithm` lists them.
pub fn methods() -> Vec<Box<dyn Method>> {
    Vec::new()
}
