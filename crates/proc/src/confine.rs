//! What keeps a command in (SPEC 15, 23.4, 23.7): `network: none` as a new user namespace and a
//! new network namespace, and `sandbox` as a Landlock domain — both entered by the shell's own
//! process between fork and exec, inside the keeper (keeper.rs).
//!
//! Network. The user namespace matters as much as the network one: a root command in a network
//! namespace of its own still holds CAP_SYS_ADMIN over the host's namespaces and can simply
//! `nsenter --net=/proc/1/ns/net`. In a new user namespace its capabilities cover only that
//! namespace, so the way back is closed, for root as for anyone. The keeper, still outside,
//! writes the id maps: for root the whole identity range (root keeps its power over the
//! machine's files, and only that), for anyone else their own ids. Abstract unix sockets live
//! in the network namespace and are gone with it; unix sockets with a path in the file system
//! are files, and neither namespaces nor Landlock (up to its ABI 7) keep a command from
//! connecting to one.
//!
//! Files. Landlock only allows: the domain handles every file-system right the kernel knows,
//! and then grants reading and executing beneath `/`, everything beneath the writable
//! directories, and reading and writing `/dev/null`. Nothing inside an allowed tree can be
//! denied again. From ABI 6 the domain is also scoped: the command cannot signal a process
//! outside its own job (the domain holds the shell and all it starts) nor connect to an
//! abstract unix socket the host made. There is no crate for this: three syscalls, two structs and a table of rights
//! are less code than the landlock crate's compatibility layer, and cost nothing at start-up.
//!
//! Everything the child does is a raw syscall on data made before the fork (the child of a
//! threaded process may not allocate). A step that fails tells the keeper which it was over the
//! report pipe, so the error names what the kernel refused.

use rustix::pipe::{PipeFlags, pipe_with};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::ffi::{CStr, CString};
use std::io;
use std::os::fd::{AsRawFd, OwnedFd, RawFd};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::OpenOptionsExt;
use std::path::PathBuf;

/// run's `sandbox` (SPEC 23.4), weakest first: a floor compares with `<`.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum Mode {
    /// No file-system sandbox.
    #[default]
    None,
    /// Writes only under the root, the private TMPDIR and /dev/null; reads anywhere.
    WorkspaceWrite,
    /// No writes but /dev/null; reads anywhere.
    ReadOnly,
}

impl Mode {
    /// The mode as `sandbox` names it: `none`, `workspace-write`, `read-only`.
    pub fn name(self) -> &'static str {
        match self {
            Mode::None => "none",
            Mode::WorkspaceWrite => "workspace-write",
            Mode::ReadOnly => "read-only",
        }
    }

    /// The mode named `s`, if there is one.
    pub fn parse(s: &str) -> Option<Mode> {
        [Mode::None, Mode::WorkspaceWrite, Mode::ReadOnly]
            .into_iter()
            .find(|m| m.name() == s)
    }
}

/// What the shell's process enters before exec.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Confinement {
    pub network_none: bool,
    /// The file-system sandbox, with its writable directories; None: no Landlock domain.
    pub fs: Option<(Mode, Vec<PathBuf>)>,
}

/// A step the kernel refused, as the error names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    Namespaces = 1,
    IdMaps = 2,
    Loopback = 3,
    NoNewPrivs = 4,
    Landlock = 5,
    Mounts = 6,
}

impl Step {
    fn from(n: u32) -> Option<Step> {
        [
            Step::Namespaces,
            Step::IdMaps,
            Step::Loopback,
            Step::NoNewPrivs,
            Step::Landlock,
            Step::Mounts,
        ]
        .into_iter()
        .find(|s| *s as u32 == n)
    }

    pub fn what(self) -> &'static str {
        match self {
            Step::Namespaces => "a user and network namespace of its own",
            Step::IdMaps => "the user namespace's id maps",
            Step::Loopback => "the loopback interface in the new network namespace",
            Step::NoNewPrivs => "no_new_privs (needed for Landlock)",
            Step::Landlock => "the Landlock domain",
            Step::Mounts => "the read-only view of the files outside the writable directories",
        }
    }

    pub fn is_network(self) -> bool {
        matches!(self, Step::Namespaces | Step::IdMaps | Step::Loopback)
    }
}

// Landlock's ABI (linux/landlock.h).
const CREATE_RULESET_VERSION: libc::c_uint = 1;
const RULE_PATH_BENEATH: libc::c_int = 1;
const EXECUTE: u64 = 1 << 0;
const WRITE_FILE: u64 = 1 << 1;
const READ_FILE: u64 = 1 << 2;
const READ_DIR: u64 = 1 << 3;
const REFER: u64 = 1 << 13;
const TRUNCATE: u64 = 1 << 14;
const IOCTL_DEV: u64 = 1 << 15;
/// ABI 6's scopes: no connecting to an abstract unix socket made outside the domain, no
/// signal to a process outside it (SPEC 31.4).
const SCOPE_ABSTRACT_UNIX_SOCKET: u64 = 1 << 0;
const SCOPE_SIGNAL: u64 = 1 << 1;

#[repr(C)]
struct RulesetAttr {
    handled_access_fs: u64,
    handled_access_net: u64,
    scoped: u64,
}

#[repr(C, packed)]
struct PathBeneath {
    allowed_access: u64,
    parent_fd: i32,
}

/// The Landlock ABI version this kernel offers, or None where it has no Landlock (not built
/// in, not enabled at boot, or refused by a seccomp filter).
pub fn landlock_abi() -> Option<u32> {
    // SAFETY: the version query passes no pointer.
    let v = unsafe {
        libc::syscall(
            libc::SYS_landlock_create_ruleset,
            std::ptr::null::<RulesetAttr>(),
            0usize,
            CREATE_RULESET_VERSION,
        )
    };
    u32::try_from(v).ok().filter(|&v| v > 0)
}

/// Every file-system right the kernel's ABI knows: all of them are handled, so none is left
/// allowed by default.
fn handled(abi: u32) -> u64 {
    let mut rights = (1 << 13) - 1; // ABI 1: execute … make_sym
    if abi >= 2 {
        rights |= REFER;
    }
    if abi >= 3 {
        rights |= TRUNCATE;
    }
    if abi >= 5 {
        rights |= IOCTL_DEV;
    }
    rights
}

/// The scopes this ABI knows (none before 6: a kernel refuses a field it does not know).
pub fn scopes(abi: u32) -> u64 {
    if abi >= 6 {
        SCOPE_ABSTRACT_UNIX_SOCKET | SCOPE_SIGNAL
    } else {
        0
    }
}

/// A Landlock ruleset, made in the keeper and enforced in the shell's process.
pub struct Ruleset(OwnedFd);

impl Ruleset {
    pub fn new(writable: &[PathBuf]) -> io::Result<Ruleset> {
        let abi = landlock_abi().ok_or_else(|| io::Error::from_raw_os_error(libc::ENOSYS))?;
        let all = handled(abi);
        let attr = RulesetAttr {
            handled_access_fs: all,
            handled_access_net: 0,
            scoped: scopes(abi),
        };
        // SAFETY: a valid attr and its size; a non-negative result is a new fd we own.
        let fd = unsafe {
            libc::syscall(
                libc::SYS_landlock_create_ruleset,
                &attr,
                std::mem::size_of::<RulesetAttr>(),
                0,
            )
        };
        if fd < 0 {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: the kernel gave us this descriptor (close-on-exec).
        let ruleset = Ruleset(unsafe { std::os::fd::FromRawFd::from_raw_fd(fd as RawFd) });
        ruleset.allow("/", (EXECUTE | READ_FILE | READ_DIR) & all)?;
        for dir in writable {
            ruleset.allow(dir, all)?;
        }
        ruleset.allow(
            "/dev/null",
            (READ_FILE | WRITE_FILE | TRUNCATE | IOCTL_DEV) & all,
        )?;
        Ok(ruleset)
    }

    fn allow(&self, path: impl AsRef<std::path::Path>, access: u64) -> io::Result<()> {
        let file = std::fs::OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_PATH)
            .open(path)?;
        let rule = PathBeneath {
            allowed_access: access,
            parent_fd: file.as_raw_fd(),
        };
        // SAFETY: a valid rule struct; both descriptors live across the call.
        let r = unsafe {
            libc::syscall(
                libc::SYS_landlock_add_rule,
                self.0.as_raw_fd(),
                RULE_PATH_BENEATH,
                &rule,
                0,
            )
        };
        if r != 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(())
    }
}

/// The pipes and fds the child uses, as plain numbers it can use after fork.
#[derive(Clone, Copy)]
pub struct Hooks {
    report: RawFd,
    go_read: RawFd,
    go_write: RawFd,
    network_none: bool,
    ruleset: Option<RawFd>,
    /// With a file-system sandbox: the writable directories, made before the fork (and kept
    /// for the keeper's life), for the mount namespace that makes everything else read-only.
    writable: Option<&'static [&'static CStr]>,
    /// A new user namespace: for `network: none`, and for a mount namespace when not root.
    userns: bool,
}

/// Made in the keeper before the shell is spawned: the ruleset, the report pipe, and for
/// `network: none` the helper thread that writes the id maps.
pub struct Prepared {
    report_r: Option<OwnedFd>,
    report_w: Option<OwnedFd>,
    go_r: Option<OwnedFd>,
    helper: Option<std::thread::JoinHandle<Option<Step>>>,
    ruleset: Option<Ruleset>,
    hooks: Hooks,
}

impl Prepared {
    pub fn new(c: &Confinement) -> Result<Prepared, (Step, io::Error)> {
        let pipe = || pipe_with(PipeFlags::CLOEXEC).map_err(io::Error::from);
        let ruleset = match &c.fs {
            Some((_, writable)) => Some(Ruleset::new(writable).map_err(|e| (Step::Landlock, e))?),
            None => None,
        };
        let (report_r, report_w) = pipe().map_err(|e| (Step::Namespaces, e))?;
        let writable = c.fs.as_ref().map(|(_, dirs)| leak_paths(dirs));
        let root = rustix::process::geteuid().is_root();
        let userns = c.network_none || (writable.is_some() && !root);
        let mut hooks = Hooks {
            report: report_w.as_raw_fd(),
            go_read: -1,
            go_write: -1,
            network_none: c.network_none,
            ruleset: ruleset.as_ref().map(|r| r.0.as_raw_fd()),
            writable,
            userns,
        };
        let (mut report_r, mut go_r, mut helper) = (Some(report_r), None, None);
        if userns {
            let (r, w) = pipe().map_err(|e| (Step::Namespaces, e))?;
            hooks.go_read = r.as_raw_fd();
            hooks.go_write = w.as_raw_fd();
            go_r = Some(r);
            let from_child = report_r.take().expect("made above");
            helper = Some(std::thread::spawn(move || write_maps(from_child, w)));
        }
        Ok(Prepared {
            report_r,
            report_w: Some(report_w),
            go_r,
            helper,
            ruleset,
            hooks,
        })
    }

    pub fn hooks(&self) -> Hooks {
        self.hooks
    }

    /// After spawn, whether it worked or not: the step the child reported as refused, if any.
    pub fn finish(mut self) -> Option<Step> {
        // Our copies closed, the report pipe ends when the child has exec'd or died.
        self.report_w.take();
        self.go_r.take();
        self.ruleset.take();
        if let Some(h) = self.helper.take() {
            return h.join().ok().flatten();
        }
        let r = self.report_r.take()?;
        read_message(&r).and_then(|(tag, n)| (tag == b'E').then(|| Step::from(n)).flatten())
    }
}

fn read_message(fd: &OwnedFd) -> Option<(u8, u32)> {
    let mut msg = [0u8; 5];
    let mut got = 0;
    while got < msg.len() {
        match rustix::io::read(fd, &mut msg[got..]) {
            Ok(0) | Err(_) => return None,
            Ok(n) => got += n,
        }
    }
    Some((msg[0], u32::from_ne_bytes([msg[1], msg[2], msg[3], msg[4]])))
}

/// The keeper's helper: waits for the child to be in its new user namespace, writes its id
/// maps from outside (where our capabilities still count), and lets it go on.
fn write_maps(from_child: OwnedFd, go: OwnedFd) -> Option<Step> {
    loop {
        let (tag, n) = read_message(&from_child)?;
        match tag {
            b'P' => {
                if id_maps(n).is_err() {
                    return Some(Step::IdMaps); // dropping `go` tells the child
                }
                rustix::io::write(&go, b"g").ok()?;
            }
            b'E' => return Step::from(n),
            _ => return None,
        }
    }
}

fn id_maps(pid: u32) -> io::Result<()> {
    let (uid, gid) = (
        rustix::process::getuid().as_raw(),
        rustix::process::getgid().as_raw(),
    );
    let write = |file: &str, text: &str| std::fs::write(format!("/proc/{pid}/{file}"), text);
    if uid == 0 {
        // Root keeps every id as it is (files owned by anyone stay root's to manage); only
        // its power over the host's namespaces is gone.
        let full = "0 0 4294967295";
        if write("uid_map", full).is_ok() && write("gid_map", full).is_ok() {
            return Ok(());
        }
    }
    write("setgroups", "deny")?;
    write("uid_map", &format!("{uid} {uid} 1"))?;
    write("gid_map", &format!("{gid} {gid} 1"))
}

/// The writable directories as C strings that outlive the fork (a few paths a job).
fn leak_paths(dirs: &[PathBuf]) -> &'static [&'static CStr] {
    let strings: Vec<&'static CStr> = dirs
        .iter()
        .filter_map(|d| CString::new(d.as_os_str().as_bytes()).ok())
        .map(|c| &*Box::leak(c.into_boxed_c_str()))
        .collect();
    Box::leak(strings.into_boxed_slice())
}

impl Hooks {
    /// In the child, between fork and exec. Only raw syscalls on numbers made before.
    pub fn enter(&self) -> io::Result<()> {
        use rustix::thread::UnshareFlags;
        // Whether the mounts are this process's own to change.
        let mut own_mounts = false;
        if self.userns {
            // SAFETY: closing our copy of the helper's end, so its end alone decides EOF.
            unsafe { libc::close(self.go_write) };
            let mut new = UnshareFlags::NEWUSER;
            if self.network_none {
                new |= UnshareFlags::NEWNET;
            }
            if self.writable.is_some() {
                new |= UnshareFlags::NEWNS;
            }
            // SAFETY: unshare in the single-threaded child; no descriptor table is shared.
            match unsafe { rustix::thread::unshare_unsafe(new) } {
                Ok(()) => own_mounts = self.writable.is_some(),
                // Without user namespaces (some distributions refuse them to users) Landlock
                // alone holds the files: what it cannot cover (modes, owners, times) is open.
                Err(_) if !self.network_none => {}
                Err(e) => return Err(self.fail(Step::Namespaces, e.into())),
            }
        }
        if self.userns && (own_mounts || self.network_none) {
            self.send(
                b'P',
                rustix::process::getpid().as_raw_nonzero().get() as u32,
            );
            let mut byte = [0u8; 1];
            // SAFETY: read into a stack buffer.
            if unsafe { libc::read(self.go_read, byte.as_mut_ptr().cast(), 1) } != 1 {
                return Err(io::Error::from_raw_os_error(libc::EPERM));
            }
            if self.network_none
                && let Err(e) = loopback_up()
            {
                return Err(self.fail(Step::Loopback, e));
            }
        }
        if !self.userns && self.writable.is_some() {
            // Root has the mount namespace without a user namespace of its own (so it keeps
            // binding low ports); it loses CAP_SYS_ADMIN below, so it cannot leave it.
            // SAFETY: unshare in the single-threaded child.
            own_mounts = unsafe { rustix::thread::unshare_unsafe(UnshareFlags::NEWNS) }.is_ok();
        }
        if let (true, Some(dirs)) = (own_mounts, self.writable) {
            if let Err(e) = read_only_outside(dirs) {
                return Err(self.fail(Step::Mounts, e));
            }
            if !self.userns
                && let Err(e) = drop_sys_admin()
            {
                return Err(self.fail(Step::Mounts, e));
            }
        }
        if let Some(fd) = self.ruleset {
            if let Err(e) = rustix::thread::set_no_new_privs(true) {
                return Err(self.fail(Step::NoNewPrivs, e.into()));
            }
            // SAFETY: a plain syscall on the ruleset fd.
            if unsafe { libc::syscall(libc::SYS_landlock_restrict_self, fd, 0) } != 0 {
                return Err(self.fail(Step::Landlock, io::Error::last_os_error()));
            }
        }
        Ok(())
    }

    fn send(&self, tag: u8, n: u32) {
        let b = n.to_ne_bytes();
        let msg = [tag, b[0], b[1], b[2], b[3]];
        // SAFETY: write of a stack buffer; a failure only loses the detail.
        unsafe { libc::write(self.report, msg.as_ptr().cast(), msg.len()) };
    }

    fn fail(&self, step: Step, e: io::Error) -> io::Error {
        self.send(b'E', step as u32);
        e
    }
}

#[repr(C)]
struct MountAttr {
    attr_set: u64,
    attr_clr: u64,
    propagation: u64,
    userns_fd: u64,
}

const MOUNT_ATTR_RDONLY: u64 = 1;
const AT_RECURSIVE: libc::c_uint = 0x8000;

/// In a mount namespace of the command's own: every mount read-only but the writable
/// directories, so a chmod, chown, utimes or setxattr of a file outside them fails with EROFS
/// (Landlock has no right for a file's metadata, SPEC 31.4). The writable directories are bound
/// onto themselves first and made writable again after. Landlock then forbids any remount.
fn read_only_outside(dirs: &[&CStr]) -> io::Result<()> {
    let check = |r: libc::c_long| {
        if r == 0 {
            Ok(())
        } else {
            Err(io::Error::last_os_error())
        }
    };
    let setattr = |path: &CStr, set: u64, clr: u64| {
        let attr = MountAttr {
            attr_set: set,
            attr_clr: clr,
            propagation: 0,
            userns_fd: 0,
        };
        // SAFETY: a path, a valid attr and its size.
        check(unsafe {
            libc::syscall(
                libc::SYS_mount_setattr,
                libc::AT_FDCWD,
                path.as_ptr(),
                AT_RECURSIVE,
                &attr,
                std::mem::size_of::<MountAttr>(),
            )
        })
    };
    let root = c"/";
    // SAFETY: mount(2) on C strings made before the fork; nothing propagates to the host.
    unsafe {
        check(libc::mount(
            std::ptr::null(),
            root.as_ptr(),
            std::ptr::null(),
            libc::MS_REC | libc::MS_PRIVATE,
            std::ptr::null(),
        ) as libc::c_long)?;
        for d in dirs {
            check(libc::mount(
                d.as_ptr(),
                d.as_ptr(),
                std::ptr::null(),
                libc::MS_BIND | libc::MS_REC,
                std::ptr::null(),
            ) as libc::c_long)?;
        }
    }
    setattr(root, MOUNT_ATTR_RDONLY, 0)?;
    for d in dirs {
        setattr(d, 0, MOUNT_ATTR_RDONLY)?;
    }
    // The working directory was entered before the binds: entered again by its path, it is
    // on the writable bind rather than the read-only mount beneath.
    let mut cwd = [0 as libc::c_char; libc::PATH_MAX as usize];
    // SAFETY: getcwd into a stack buffer of its size; chdir on the NUL-terminated result.
    unsafe {
        if !libc::getcwd(cwd.as_mut_ptr(), cwd.len()).is_null() {
            check(libc::chdir(cwd.as_ptr()) as libc::c_long)?;
        }
    }
    Ok(())
}

/// Root gives up CAP_SYS_ADMIN for good (bounding set, then its own sets), so it cannot
/// enter the host's mount namespace again.
fn drop_sys_admin() -> io::Result<()> {
    #[repr(C)]
    struct Header {
        version: u32,
        pid: i32,
    }
    #[repr(C)]
    #[derive(Clone, Copy)]
    struct Data {
        effective: u32,
        permitted: u32,
        inheritable: u32,
    }
    const VERSION_3: u32 = 0x2008_0522;
    const CAP_SYS_ADMIN: u32 = 21;
    let bit = CAP_SYS_ADMIN;
    let mut header = Header {
        version: VERSION_3,
        pid: 0,
    };
    let mut data = [Data {
        effective: 0,
        permitted: 0,
        inheritable: 0,
    }; 2];
    // SAFETY: prctl and capget/capset on stack structs of the kernel's layout.
    unsafe {
        if libc::prctl(libc::PR_CAPBSET_DROP, bit as libc::c_ulong, 0, 0, 0) != 0 {
            return Err(io::Error::last_os_error());
        }
        if libc::syscall(libc::SYS_capget, &mut header, data.as_mut_ptr()) != 0 {
            return Err(io::Error::last_os_error());
        }
        let (word, mask) = ((bit / 32) as usize, !(1u32 << (bit % 32)));
        data[word].effective &= mask;
        data[word].permitted &= mask;
        data[word].inheritable &= mask;
        if libc::syscall(libc::SYS_capset, &mut header, data.as_ptr()) != 0 {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(())
}

/// `ip link set lo up`, by ioctl, so the command's own local servers still work (rustix has no
/// wrapper for the interface ioctls).
fn loopback_up() -> io::Result<()> {
    // SAFETY: a socket, two ioctls on a zeroed ifreq naming "lo", close.
    unsafe {
        let fd = libc::socket(libc::AF_INET, libc::SOCK_DGRAM | libc::SOCK_CLOEXEC, 0);
        if fd < 0 {
            return Err(io::Error::last_os_error());
        }
        let mut req: libc::ifreq = std::mem::zeroed();
        req.ifr_name[0] = b'l' as libc::c_char;
        req.ifr_name[1] = b'o' as libc::c_char;
        let mut r = libc::ioctl(fd, libc::SIOCGIFFLAGS, &mut req);
        if r == 0 {
            req.ifr_ifru.ifru_flags |= libc::IFF_UP as libc::c_short;
            r = libc::ioctl(fd, libc::SIOCSIFFLAGS, &mut req);
        }
        let err = io::Error::last_os_error();
        libc::close(fd);
        if r != 0 {
            return Err(err);
        }
    }
    Ok(())
}
