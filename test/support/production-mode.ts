// The service in these tests runs as `memicl` runs it (bin/memicl.js): in the libraries' production mode, where
// jest's default NODE_ENV ("test") would run GraphQL's development checks. Set before a test file loads a library;
// the processes a test starts inherit it.
process.env.NODE_ENV = "production";
