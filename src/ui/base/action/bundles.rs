//! What a player asks of the bundles room.

use std::collections::BTreeMap;
use std::path::PathBuf;

/// What a player asks of the Bundles window.
#[derive(Debug, Clone, PartialEq)]
pub enum BundleAction {
    Open,
    Close,
    /// Writes a gang (by name), or every gang, to a bundle file.
    Export {
        gang: Option<String>,
        /// The whole campaign, with its log and photos.
        whole: bool,
        to: PathBuf,
        replace: bool,
    },
    /// Makes a new campaign file from a whole campaign's bundle and opens it.
    OpenWhole {
        file: PathBuf,
        to: PathBuf,
    },
    /// Brings a bundle file's gangs in, each gang named in `renamed` (its
    /// name in the bundle → the name it gets) under its new name.
    Import {
        file: PathBuf,
        renamed: BTreeMap<String, String>,
    },
}
