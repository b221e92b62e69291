//! Structural patterns (SPEC 26.4): ast-grep's matcher over our grammars.
