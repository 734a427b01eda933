//! A member's signature of their batches: Ed25519 (ring), the key made on
//! the member's laptop and kept there, its public half published to the
//! league. A batch's signature is of its hash in the chain (see
//! [`super::chain`]), so it covers every field of the batch and its place.

use ring::rand::SystemRandom;
use ring::signature::{ED25519, Ed25519KeyPair, KeyPair as _, UnparsedPublicKey};

/// A member's key: the private half (PKCS#8, in hex) to keep, the public
/// half (hex) to publish.
#[derive(Debug, Clone)]
pub struct NewKey {
    pub private: String,
    pub public: String,
}

/// Why a key could not be made or read.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct KeyError(&'static str);

/// A new key from the system's randomness.
pub fn new_key() -> Result<NewKey, KeyError> {
    let document = Ed25519KeyPair::generate_pkcs8(&SystemRandom::new())
        .map_err(|_| KeyError("this machine gave no randomness for a key"))?;
    let pair = Ed25519KeyPair::from_pkcs8(document.as_ref())
        .map_err(|_| KeyError("a key just made does not read back"))?;
    Ok(NewKey {
        private: hex::encode(document.as_ref()),
        public: hex::encode(pair.public_key().as_ref()),
    })
}

/// The public half (hex) of the private key `private`.
pub fn public_of(private: &str) -> Result<String, KeyError> {
    Ok(hex::encode(pair(private)?.public_key().as_ref()))
}

fn pair(private: &str) -> Result<Ed25519KeyPair, KeyError> {
    let bytes = hex::decode(private).map_err(|_| KeyError("the kept key is not hex"))?;
    Ed25519KeyPair::from_pkcs8(&bytes).map_err(|_| KeyError("the kept key is not a key"))
}

/// The signature (hex) of `message` with the private key `private`.
pub fn sign(private: &str, message: &str) -> Result<String, KeyError> {
    Ok(hex::encode(
        pair(private)?.sign(message.as_bytes()).as_ref(),
    ))
}

/// Whether `signature` (hex) is of `message` by the key `public` (hex).
pub fn verify(public: &str, message: &str, signature: &str) -> bool {
    let (Ok(public), Ok(signature)) = (hex::decode(public), hex::decode(signature)) else {
        return false;
    };
    UnparsedPublicKey::new(&ED25519, public)
        .verify(message.as_bytes(), &signature)
        .is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_signature_holds_for_its_key_and_message_only() {
        let ann = new_key().unwrap();
        let ben = new_key().unwrap();
        let signed = sign(&ann.private, "hash").unwrap();
        assert!(verify(&ann.public, "hash", &signed));
        assert!(!verify(&ben.public, "hash", &signed));
        assert!(!verify(&ann.public, "other", &signed));
        assert!(!verify(&ann.public, "hash", "zz"));
        assert_eq!(ann.public.len(), 64);
        assert_eq!(public_of(&ann.private).unwrap(), ann.public);
        assert_eq!(signed.len(), 128);
    }
}
