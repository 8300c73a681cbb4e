//! Run-length placements: the board part of every game's position string. The rows of the
//! board as drawn (top first, see [`Geometry::rows`]) separated by `/`; in each row, from the
//! left, a piece as the game writes it or a number for a run of empty cells. Each game supplies
//! only how one piece is read and written.

use crate::error::PositionError;
use crate::game::Cell;

use super::Geometry;

/// The field name of placement errors.
pub const FIELD: &str = "placement";

/// Reads a placement. `piece` is given the rest of the row at a place where a piece may start;
/// it returns the piece and how many bytes it took, or `None` if no piece starts there.
/// `pieces` says what the pieces look like, for error messages (`"K L C V M P or k l c v m p"`).
/// The result holds one entry per cell of the geometry.
pub fn parse<P: Clone>(
    geometry: Geometry,
    text: &str,
    pieces: &str,
    mut piece: impl FnMut(&str) -> Option<(P, usize)>,
) -> Result<Vec<Option<P>>, PositionError> {
    let rows = geometry.rows();
    let mut board = vec![None; geometry.cell_count()];
    let parts: Vec<&str> = text.split('/').collect();
    if parts.len() != rows.len() {
        return Err(PositionError::new(
            FIELD,
            format!(
                "expected {} {} separated by /, found {}",
                rows.len(),
                geometry.row_word(true),
                parts.len()
            ),
        ));
    }
    for (i, (part, (_, cells))) in parts.iter().zip(&rows).enumerate() {
        let label = geometry.row_label(i);
        let mut at: usize = 0; // cells of the row filled so far
        let mut rest = *part;
        while !rest.is_empty() {
            let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
            if digits > 0 {
                let (number, tail) = rest.split_at(digits);
                let run: usize = match number.parse() {
                    Ok(n) if n > 0 && !number.starts_with('0') => n,
                    _ => {
                        return Err(PositionError::new(
                            FIELD,
                            format!(
                                "{label}: {number:?} is not a run of empty cells (a number from 1, \
                                 without leading zeros)"
                            ),
                        ))
                    }
                };
                at = at.saturating_add(run);
                rest = tail;
            } else {
                let Some((p, len)) = piece(rest).filter(|&(_, len)| len > 0 && len <= rest.len())
                else {
                    let c = rest.chars().next().unwrap_or(' ');
                    return Err(PositionError::new(
                        FIELD,
                        format!(
                            "{label}: unexpected {c:?} (expected a number of empty cells or a \
                             piece: {pieces})"
                        ),
                    ));
                };
                if let Some(&cell) = cells.get(at) {
                    board[cell as usize] = Some(p);
                }
                at += 1;
                rest = &rest[len..];
            }
            if at > cells.len() {
                break;
            }
        }
        if at != cells.len() {
            return Err(PositionError::new(
                FIELD,
                format!(
                    "{label} has {}{at} cells, expected {}",
                    if at > cells.len() { "at least " } else { "" },
                    cells.len()
                ),
            ));
        }
    }
    Ok(board)
}

/// Writes a placement: `piece(cell, out)` appends the piece on the cell to `out` and returns
/// true, or returns false for an empty cell. Runs of empty cells are merged.
pub fn write(geometry: Geometry, mut piece: impl FnMut(Cell, &mut String) -> bool) -> String {
    let mut out = String::new();
    for (i, (_, cells)) in geometry.rows().iter().enumerate() {
        if i > 0 {
            out.push('/');
        }
        let mut empty = 0;
        for &cell in cells {
            let mark = out.len();
            if piece(cell, &mut out) {
                if empty > 0 {
                    out.insert_str(mark, &empty.to_string());
                    empty = 0;
                }
            } else {
                empty += 1;
            }
        }
        if empty > 0 {
            out.push_str(&empty.to_string());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn letter(s: &str) -> Option<(char, usize)> {
        let c = s.chars().next()?;
        c.is_ascii_alphabetic().then_some((c, 1))
    }

    #[test]
    fn square_placements_round_trip() {
        let g = Geometry::Square { files: 3, ranks: 2 };
        let board = parse(g, "a2/1bc", "letters", letter).unwrap();
        // Rank 2 is drawn first: a on a2 (cell 3); rank 1: b on b1, c on c1.
        assert_eq!(
            board,
            vec![None, Some('b'), Some('c'), Some('a'), None, None]
        );
        let text = write(g, |c, out| match board[c as usize] {
            Some(p) => {
                out.push(p);
                true
            }
            None => false,
        });
        assert_eq!(text, "a2/1bc");
    }

    #[test]
    fn hex_placements_use_the_drawn_rows() {
        let g = Geometry::Hex { radius: 1 };
        let board = parse(g, "1x/3/y1", "letters", letter).unwrap();
        assert_eq!(board.iter().filter(|p| p.is_some()).count(), 2);
        let text = write(g, |c, out| match board[c as usize] {
            Some(p) => {
                out.push(p);
                true
            }
            None => false,
        });
        assert_eq!(text, "1x/3/y1");
    }

    #[test]
    fn bad_placements_say_which_row_and_why() {
        let g = Geometry::Square { files: 8, ranks: 8 };
        let err = |t: &str| parse(g, t, "letters", letter).unwrap_err().to_string();
        assert!(err("8/8").contains("expected 8 ranks separated by /, found 2"));
        assert!(err("9/8/8/8/8/8/8/8").contains("rank 8 has at least 9 cells, expected 8"));
        assert!(err("8/7/8/8/8/8/8/8").contains("rank 7 has 7 cells, expected 8"));
        assert!(err("8/8/0a7/8/8/8/8/8").contains("rank 6: \"0\" is not a run"));
        assert!(err("8/8/8/8/8/8/8/7?").contains("rank 1: unexpected '?'"));
        assert!(err("8/8/8/8/8/8/8/99999999999999999999999").contains("rank 1"));
        let h = Geometry::Hex { radius: 1 };
        let e = parse(h, "2/3/2x", "letters", letter)
            .unwrap_err()
            .to_string();
        assert!(e.contains("row c has at least 3 cells, expected 2"), "{e}");
    }
}
