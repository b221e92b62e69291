//! loopr-tool's web engine: which addresses `fetch` may reach (`policy`) and how a body is read
//! as text (`decode`). Pure functions over bytes and URLs, no sockets: the HTTP client, the
//! cache and the tools that use them are loopr-tool's own, a layer above.

pub mod decode;
pub mod policy;
