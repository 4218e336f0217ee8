//! Files written so that a failure never costs what they held: a file is replaced whole or
//! not at all ([`Replacement`], [`replace`]), and a record file grows by whole records
//! ([`Appender`]). Every command that writes a file goes through here.

use std::ffi::OsString;
use std::fs::{File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

/// Writes `bytes` as the whole new content of `path`: the old content stays until the new
/// one is complete.
pub fn replace(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut file = Replacement::create(path)?;
    file.write_all(bytes)?;
    file.commit()
}

/// The new content of a file, written to a temporary file beside it and renamed over it by
/// [`Replacement::commit`]; dropped without it, the temporary file goes and the file is as
/// it was.
pub struct Replacement {
    out: BufWriter<File>,
    /// The temporary file until it is renamed; `None` for something other than a regular file
    /// (`/dev/stdout`, a named pipe), which cannot be replaced by renaming and holds nothing
    /// to lose: it is written in place.
    temp: Option<PathBuf>,
    path: PathBuf,
}

impl Replacement {
    /// The new content of `path`, empty until written; `path` keeps its old content until
    /// [`Replacement::commit`].
    pub fn create(path: &Path) -> io::Result<Replacement> {
        let existing = std::fs::metadata(path).ok();
        if existing.as_ref().is_some_and(|m| !m.is_file()) {
            let file = OpenOptions::new().write(true).truncate(true).open(path)?;
            return Ok(Replacement {
                out: BufWriter::new(file),
                temp: None,
                path: path.to_path_buf(),
            });
        }
        // Through a symbolic link, the file it points to is the one replaced.
        let path = match &existing {
            Some(_) => std::fs::canonicalize(path)?,
            None => path.to_path_buf(),
        };
        let (file, temp) = create_temp(&path)?;
        let replacement = Replacement {
            out: BufWriter::new(file),
            temp: Some(temp),
            path,
        };
        if let Some(meta) = existing {
            replacement
                .out
                .get_ref()
                .set_permissions(meta.permissions())?;
        }
        Ok(replacement)
    }

    /// Puts the new content in place: flushed, synced, then renamed over the file, so that
    /// the file holds the old content or the new one whole, even if the machine stops.
    pub fn commit(mut self) -> io::Result<()> {
        self.out.flush()?;
        if let Some(temp) = &self.temp {
            self.out.get_ref().sync_all()?;
            std::fs::rename(temp, &self.path)?;
            self.temp = None;
        }
        Ok(())
    }
}

/// Fails, as [`Replacement::create`] would, if `path` cannot be written; leaves nothing
/// behind. For commands that compute for long before they write.
pub fn check_writable(path: &Path) -> io::Result<()> {
    Replacement::create(path).map(drop)
}

/// A new file `.NAME.PID.tmp` beside `path` (hidden, and named after the process so that two
/// runs writing the same file do not share one).
fn create_temp(path: &Path) -> io::Result<(File, PathBuf)> {
    let name = path
        .file_name()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "not a file name"))?;
    let mut tries = 0;
    loop {
        let mut temp_name = OsString::from(".");
        temp_name.push(name);
        temp_name.push(format!(".{}", std::process::id()));
        if tries > 0 {
            temp_name.push(format!("-{tries}"));
        }
        temp_name.push(".tmp");
        let temp = path.with_file_name(temp_name);
        match OpenOptions::new().write(true).create_new(true).open(&temp) {
            Ok(file) => return Ok((file, temp)),
            // Left by an earlier process of the same number that was killed.
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists && tries < 100 => tries += 1,
            Err(e) => return Err(e),
        }
    }
}

impl Write for Replacement {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.out.write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

impl Drop for Replacement {
    fn drop(&mut self) {
        if let Some(temp) = &self.temp {
            let _ = std::fs::remove_file(temp);
        }
    }
}

/// A file of records that a long run adds to as it goes (match records, training samples):
/// each [`Appender::append`] adds a whole record or, failing, cuts the file back to where it
/// was, so a failure never leaves half a record after the earlier content. A file the
/// appender created and never added to is removed when it is dropped.
pub struct Appender {
    file: File,
    path: PathBuf,
    len: u64,
    created: bool,
}

impl Appender {
    /// Opens `path` for appending, creating it if need be.
    pub fn open(path: &Path) -> io::Result<Appender> {
        let mut options = OpenOptions::new();
        options.read(true).append(true);
        let (file, created) = match options.clone().create_new(true).open(path) {
            Ok(file) => (file, true),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => (options.open(path)?, false),
            Err(e) => return Err(e),
        };
        let len = file.metadata()?.len();
        Ok(Appender {
            file,
            path: path.to_path_buf(),
            len,
            created,
        })
    }

    /// The file's length: what it held, and the records added since.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether no record has been appended.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The file as it is, to read from the start.
    pub fn file(&self) -> &File {
        &self.file
    }

    /// Adds `record` whole, or nothing.
    pub fn append(&mut self, record: &[u8]) -> io::Result<()> {
        match self.file.write_all(record) {
            Ok(()) => {
                self.len += record.len() as u64;
                Ok(())
            }
            Err(e) => {
                let _ = self.file.set_len(self.len);
                Err(e)
            }
        }
    }

    /// Cuts the file to its first `len` bytes (a resumed run dropping a record it redoes).
    pub fn truncate(&mut self, len: u64) -> io::Result<()> {
        self.file.set_len(len)?;
        self.len = len;
        Ok(())
    }
}

impl Drop for Appender {
    fn drop(&mut self) {
        if self.created && self.len == 0 {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("hnefi-files-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn entries(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn a_replacement_shows_only_when_committed() {
        let dir = dir("replace");
        let path = dir.join("keep.txt");
        std::fs::write(&path, "old").unwrap();
        let mut new = Replacement::create(&path).unwrap();
        new.write_all(b"new").unwrap();
        new.flush().unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "old");
        drop(new);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "old");
        assert_eq!(entries(&dir), ["keep.txt"]);
        replace(&path, b"new").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new");
        assert_eq!(entries(&dir), ["keep.txt"]);
        // Nothing is created for a replacement given up, or a check.
        drop(Replacement::create(&dir.join("never.txt")).unwrap());
        check_writable(&dir.join("checked.txt")).unwrap();
        assert_eq!(entries(&dir), ["keep.txt"]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn a_replacement_keeps_the_mode_and_follows_links() {
        use std::os::unix::fs::PermissionsExt;
        let dir = dir("links");
        let path = dir.join("target.txt");
        std::fs::write(&path, "old").unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o640)).unwrap();
        let link = dir.join("link.txt");
        std::os::unix::fs::symlink(&path, &link).unwrap();
        replace(&link, b"new").unwrap();
        assert!(std::fs::symlink_metadata(&link).unwrap().is_symlink());
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new");
        let mode = std::fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o640);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_replacement_in_a_missing_directory_fails_at_once() {
        let dir = dir("missing");
        assert!(Replacement::create(&dir.join("no/such/dir.txt")).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn an_appender_adds_whole_records_and_leaves_no_empty_file() {
        let dir = dir("append");
        let path = dir.join("records.csv");
        drop(Appender::open(&path).unwrap());
        assert!(
            !path.exists(),
            "a file created and never written is removed"
        );
        std::fs::write(&path, "a\n").unwrap();
        let mut file = Appender::open(&path).unwrap();
        assert_eq!(file.len(), 2);
        file.append(b"b\n").unwrap();
        file.append(b"c\n").unwrap();
        file.truncate(4).unwrap();
        file.append(b"d\n").unwrap();
        drop(file);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "a\nb\nd\n");
        // An empty file that was there before stays.
        let empty = dir.join("empty.csv");
        std::fs::write(&empty, "").unwrap();
        drop(Appender::open(&empty).unwrap());
        assert!(empty.exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_failed_append_counts_nothing() {
        // /dev/full takes nothing: every write fails with "no space left".
        let mut full = Appender::open(Path::new("/dev/full")).unwrap();
        assert!(full.append(b"record\n").is_err());
        assert_eq!(full.len(), 0);
    }
}
