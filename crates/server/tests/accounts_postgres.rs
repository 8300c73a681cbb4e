//! The account tests of accounts.rs (cases/accounts.rs) on PostgreSQL, and a rated game ended
//! through two server processes at once: rated exactly once.

#[path = "common/pg.rs"]
mod pg;

/// A new database on the shared temporary server.
fn fresh_db() -> String {
    pg::shared().database()
}

include!("cases/accounts.rs");

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_rated_game_ended_in_two_processes_at_once_is_rated_once() {
    let db = fresh_db();
    let a = App::with_accounts(
        Store::open(&db).await.unwrap(),
        Duration::from_millis(20),
        1,
        RateLimits::off(),
        fast(),
    );
    let b = App::with_accounts(
        Store::open(&db).await.unwrap(),
        Duration::from_millis(20),
        1,
        RateLimits::off(),
        fast(),
    );
    let alice = signup(&a, "alice", "the password").await;
    let bob = signup(&a, "bob", "the password").await;
    for round in 0..8 {
        let (id, alice_token) = rated_game(&a, "reines", 2, &alice).await;
        let bob_token = join(&a, &id, 1, &bob).await;
        // Both processes have the game in memory, then each player resigns through one.
        state(&b, &id).await;
        let (one, two) = tokio::join!(
            resign(&a, &id, 0, &alice_token),
            resign(&b, &id, 1, &bob_token)
        );
        let ok = [&one, &two]
            .iter()
            .filter(|x| x.status == StatusCode::OK)
            .count();
        assert!(ok >= 1, "round {round}: {} / {}", one.text, two.text);
        // Whichever won, the game was rated once: one more game for each.
        let games = blitz(&a, &alice, "reines").await["games"].clone();
        assert_eq!(games, json!(round + 1), "round {round}");
        assert_eq!(blitz(&b, &bob, "reines").await["games"], json!(round + 1));
        let ended = state(&b, &id).await;
        assert!(ended["rating_change"].is_object(), "{ended}");
    }
}
