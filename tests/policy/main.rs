//! The catalog (exposed tools, limits, path rules, hooks, command tools, lanes) and other agents'
//! calls with their meaning (the dialects).

mod carried;
mod catalog;
mod dialects;
mod hook_arguments;
mod named_hints;
mod seed_names;
