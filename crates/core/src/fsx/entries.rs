//! Moving, copying and removing whole entries (move, delete into the trash, undo), shared by
//! those tools: by rename between checked directory handles (SPEC 23.5), across file systems by
//! a copy under a temp name, and never leaving a half-made copy or a half-removed source.

use super::sync_dir;
use std::fs::{File, Permissions};
use std::io;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};

/// The directories that do not exist yet on the way to `real` (itself included), outermost
/// first: what creating it with its parents will make.
pub fn missing_dirs(real: &Path) -> Vec<PathBuf> {
    let mut missing: Vec<PathBuf> = real
        .ancestors()
        .take_while(|p| std::fs::symlink_metadata(p).is_err())
        .map(Path::to_path_buf)
        .collect();
    missing.reverse();
    missing
}

/// What a tree holds: regular files (and links and other non-directories), directories
/// (itself included when it is one) and bytes. Links are counted, never followed.
#[derive(Debug, Default, Clone, Copy)]
pub struct Measure {
    pub files: u64,
    pub directories: u64,
    pub bytes: u64,
}

pub fn measure(path: &Path) -> io::Result<Measure> {
    let meta = std::fs::symlink_metadata(path)?;
    let mut m = Measure::default();
    if !meta.is_dir() {
        m.files = 1;
        m.bytes = meta.len();
        return Ok(m);
    }
    m.directories = 1;
    for e in std::fs::read_dir(path)? {
        let sub = measure(&e?.path())?;
        m.files += sub.files;
        m.directories += sub.directories;
        m.bytes += sub.bytes;
    }
    Ok(m)
}

/// Moves `from` to `to` by rename; across file systems (EXDEV) by copying the tree (modes kept,
/// links copied as links, files fsynced) under a temp name beside `to`, renaming it into place,
/// then removing `from`. A failure leaves both ends as they were: a partial copy is removed,
/// and what a failed removal already took from `from` is copied back first.
pub fn move_entry(from: &Path, to: &Path) -> io::Result<()> {
    match std::fs::rename(from, to) {
        Err(e) if e.raw_os_error() == Some(libc::EXDEV) => {
            use std::sync::atomic::{AtomicU64, Ordering};
            static SERIAL: AtomicU64 = AtomicU64::new(0);
            let (Some(dir), Some(name)) = (to.parent(), to.file_name()) else {
                return Err(e);
            };
            let tmp = dir.join(format!(
                ".{}.{}.{}.loopr-tmp",
                name.to_string_lossy(),
                std::process::id(),
                SERIAL.fetch_add(1, Ordering::Relaxed)
            ));
            let copied = copy_tree(from, &tmp).and_then(|()| std::fs::rename(&tmp, to));
            if let Err(e) = copied {
                let _ = remove_entry(&tmp);
                return Err(e);
            }
            sync_dir(dir);
            if let Err(e) = remove_entry(from) {
                let _ = copy_missing(to, from);
                let _ = remove_entry(to);
                return Err(e);
            }
            Ok(())
        }
        other => other,
    }
}

/// Moves the entry `from` names (itself, not a link's target) to `to`, both resolved: the
/// rename is made between their checked directory handles (SPEC 23.5), creating `to`'s missing
/// parents (returned, outermost first; removed again when the move fails). Across file systems
/// it falls back to copying by path.
pub fn move_resolved(
    from: &crate::sandbox::Resolved,
    to: &crate::sandbox::Resolved,
) -> io::Result<Vec<std::path::PathBuf>> {
    crate::fault::check("rename")?;
    let (Some(f), Some(t)) = (&from.at, &to.at) else {
        let made = to.real.parent().map(missing_dirs).unwrap_or_default();
        let moved = match to.real.parent() {
            Some(parent) => std::fs::create_dir_all(parent),
            None => Ok(()),
        }
        .and_then(|()| move_entry(&from.real, &to.real));
        return match moved {
            Ok(()) => Ok(made),
            Err(e) => {
                remove_dirs(&made);
                Err(e)
            }
        };
    };
    let (dir, made) = t.make_parents()?;
    let moved = match rustix::fs::renameat(&f.dir, f.name.as_os_str(), &dir, t.name.as_os_str()) {
        Ok(()) => Ok(()),
        Err(rustix::io::Errno::XDEV) => move_entry(&from.real, &to.real),
        Err(e) => Err(e.into()),
    };
    match moved {
        Ok(()) => Ok(made),
        Err(e) => {
            remove_dirs(&made);
            Err(e)
        }
    }
}

/// Removes directories made for a change that failed, innermost first, while empty.
fn remove_dirs(made: &[PathBuf]) {
    for d in made.iter().rev() {
        let _ = std::fs::remove_dir(d);
    }
}

/// Moves the entry `from` names into directory `dir` (a path the caller owns, such as the
/// trash) under `name`, renaming from its checked handle.
pub fn move_out(from: &crate::sandbox::Resolved, dir: &Path, name: &str) -> io::Result<()> {
    let Some(f) = &from.at else {
        return move_entry(&from.real, &dir.join(name));
    };
    let to = rustix::fs::open(
        dir,
        rustix::fs::OFlags::PATH | rustix::fs::OFlags::DIRECTORY | rustix::fs::OFlags::CLOEXEC,
        rustix::fs::Mode::empty(),
    )?;
    match rustix::fs::renameat(&f.dir, f.name.as_os_str(), &to, name) {
        Ok(()) => Ok(()),
        Err(rustix::io::Errno::XDEV) => move_entry(&from.real, &dir.join(name)),
        Err(e) => Err(e.into()),
    }
}

/// Moves `from` (a path the caller owns, such as a trash entry) to where `to` resolved,
/// renaming into its checked directory handle and creating its missing parents.
pub fn move_in(from: &Path, to: &crate::sandbox::Resolved) -> io::Result<()> {
    crate::fault::check("rename")?;
    let Some(t) = &to.at else {
        if let Some(parent) = to.real.parent() {
            std::fs::create_dir_all(parent)?;
        }
        return move_entry(from, &to.real);
    };
    let (dir, made) = t.make_parents()?;
    let (Some(src_dir), Some(src_name)) = (from.parent(), from.file_name()) else {
        return Err(io::Error::other("no parent directory"));
    };
    let src = rustix::fs::open(
        src_dir,
        rustix::fs::OFlags::PATH | rustix::fs::OFlags::DIRECTORY | rustix::fs::OFlags::CLOEXEC,
        rustix::fs::Mode::empty(),
    )?;
    let moved = match rustix::fs::renameat(&src, src_name, &dir, t.name.as_os_str()) {
        Ok(()) => Ok(()),
        Err(rustix::io::Errno::XDEV) => move_entry(from, &to.real),
        Err(e) => Err(e.into()),
    };
    if moved.is_err() {
        remove_dirs(&made);
    }
    moved
}

/// Removes a file, a link or a whole directory tree (links are removed, never followed).
pub fn remove_entry(path: &Path) -> io::Result<()> {
    if std::fs::symlink_metadata(path)?.is_dir() {
        std::fs::remove_dir_all(path)
    } else {
        std::fs::remove_file(path)
    }
}

fn copy_tree(from: &Path, to: &Path) -> io::Result<()> {
    let meta = std::fs::symlink_metadata(from)?;
    let ft = meta.file_type();
    if ft.is_symlink() {
        std::os::unix::fs::symlink(std::fs::read_link(from)?, to)?;
    } else if ft.is_dir() {
        std::fs::create_dir(to)?;
        for e in std::fs::read_dir(from)? {
            let e = e?;
            copy_tree(&e.path(), &to.join(e.file_name()))?;
        }
        std::fs::set_permissions(to, Permissions::from_mode(meta.mode() & 0o7777))?;
    } else {
        std::fs::copy(from, to)?;
        std::fs::set_permissions(to, Permissions::from_mode(meta.mode() & 0o7777))?;
        File::open(to)?.sync_all()?;
    }
    Ok(())
}

/// Copies what `copy` holds and `orig` lacks back into `orig` (a removal that failed part-way
/// is undone from the copy it had made).
fn copy_missing(copy: &Path, orig: &Path) -> io::Result<()> {
    match std::fs::symlink_metadata(orig) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => copy_tree(copy, orig),
        Err(e) => Err(e),
        Ok(m) if m.is_dir() && std::fs::symlink_metadata(copy)?.is_dir() => {
            for e in std::fs::read_dir(copy)? {
                let e = e?;
                copy_missing(&e.path(), &orig.join(e.file_name()))?;
            }
            Ok(())
        }
        Ok(_) => Ok(()),
    }
}
