//! Collects every error of one expansion so a user sees them all at once.

use std::cell::RefCell;

use proc_macro2::TokenStream;
use quote::ToTokens;

/// As serde_derive's `Ctxt`: `check` consumes it, and dropping it with its
/// errors never taken panics, so no path of the macro can lose an error.
pub struct Ctxt {
    /// `None` once `check` has taken the errors.
    errors: RefCell<Option<Vec<syn::Error>>>,
}

impl Ctxt {
    pub fn new() -> Self {
        Ctxt {
            errors: RefCell::new(Some(Vec::new())),
        }
    }

    /// Records an error pointing at `tokens`.
    pub fn error_spanned_by<T: ToTokens>(&self, tokens: T, message: impl std::fmt::Display) {
        self.syn_error(syn::Error::new_spanned(tokens.into_token_stream(), message));
    }

    pub fn syn_error(&self, error: syn::Error) {
        self.errors
            .borrow_mut()
            .as_mut()
            .expect("Ctxt used after check")
            .push(error);
    }

    /// Takes the collected errors: `Err` holds them as `compile_error!`
    /// invocations.
    pub fn check(self) -> Result<(), TokenStream> {
        let errors = self.errors.borrow_mut().take().expect("Ctxt checked twice");
        if errors.is_empty() {
            Ok(())
        } else {
            Err(errors.iter().map(syn::Error::to_compile_error).collect())
        }
    }
}

impl Drop for Ctxt {
    fn drop(&mut self) {
        // While unwinding another panic is already on its way.
        if !std::thread::panicking() && self.errors.borrow().is_some() {
            panic!("forgot to check for errors");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Ctxt;

    #[test]
    fn check_returns_every_error() {
        let cx = Ctxt::new();
        cx.error_spanned_by(quote::quote!(a), "first");
        cx.error_spanned_by(quote::quote!(b), "second");
        let errors = cx.check().unwrap_err().to_string();
        assert!(errors.contains("\"first\"") && errors.contains("\"second\""));
    }

    #[test]
    fn check_without_errors_is_ok() {
        assert!(Ctxt::new().check().is_ok());
    }

    #[test]
    #[should_panic(expected = "forgot to check for errors")]
    fn dropping_unchecked_errors_panics() {
        let cx = Ctxt::new();
        cx.error_spanned_by(quote::quote!(a), "lost");
    }

    #[test]
    #[should_panic(expected = "forgot to check for errors")]
    fn dropping_an_unchecked_context_panics() {
        let _cx = Ctxt::new();
    }
}
