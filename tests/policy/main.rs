//! The catalog (exposed tools, limits, path rules, hooks, command tools, lanes) and other agents'
//! calls with their meaning (the dialects).

mod catalog;
mod dialects;
mod named_hints;
mod seed_names;
