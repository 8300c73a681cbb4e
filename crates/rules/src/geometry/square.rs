//! Square grids: files `a…`, ranks `1…`, cell index `rank * files + file`.

use crate::game::Cell;

/// `e4` for file 4, rank 3 (from 0).
pub fn name(files: u8, cell: Cell) -> String {
    let f = (cell % files as Cell) as u8;
    let r = cell / files as Cell;
    format!("{}{}", (b'a' + f) as char, r + 1)
}

/// Reads `e4`, `n12`; `None` if malformed or off the board.
pub fn parse(files: u8, ranks: u8, text: &str) -> Option<Cell> {
    let bytes = text.as_bytes();
    let (&f, rest) = bytes.split_first()?;
    if !f.is_ascii_lowercase() || rest.is_empty() || rest.len() > 2 {
        return None;
    }
    if rest[0] == b'0' || !rest.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let file = f - b'a';
    let rank: u32 = std::str::from_utf8(rest).ok()?.parse().ok()?;
    if file >= files || rank == 0 || rank > ranks as u32 {
        return None;
    }
    Some((rank as Cell - 1) * files as Cell + file as Cell)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for cell in 0..168 {
            assert_eq!(parse(14, 12, &name(14, cell)), Some(cell));
        }
        assert_eq!(name(8, 0), "a1");
        assert_eq!(name(8, 63), "h8");
        assert_eq!(parse(8, 8, "e4"), Some(28));
        for bad in ["", "e", "e0", "e9", "i1", "E4", "e04", "e44", "4e", "e-1"] {
            assert_eq!(parse(8, 8, bad), None, "{bad}");
        }
    }
}
