// A tree of Prospero directories for our Prospero server (test/servers/prospero-server.ts): a
// directory with a link of each kind (Prospero v5 3.5.3.1: a FILE, a DIRECTORY, EXTERNAL links
// whose access methods lead to the real vsftpd and pygopherd of test/servers/*.sh, a SYMBOLIC
// link, a link the principal may not read, a union link, a union link with a filter), the union
// directory (with a name the directory already has, and a union link back), a sub-directory, a
// forwarded directory, an empty one, and huge ones made on demand.

/** The server's host(port), as a LINK line writes it. */
const at = (port: number) => `127.0.0.1(${port})`;

/** The hsonames of the tree, and the lines of DIRECTORY + LIST on each (port: our server's). */
export function tree(port: () => number): Record<string, () => string[]> {
  return {
    '/pros/dir': () => [
      // an attribute of the directory itself, before the first LINK: not a link's
      'ATTRIBUTE OBJECT FIELD ACCESS-METHOD AFTP INTERNET-D nowhere.example ASCII /x TEXT',
      `LINK L FILE unix INTERNET-D ${at(port())} ASCII /pros/unix 0`,
      `LINK L DIRECTORY sub INTERNET-D ${at(port())} ASCII /pros/sub 0 ID REMOTE 7`,
      'LINK L EXTERNAL unix.txt INTERNET-D 127.0.0.1(2121) ASCII /pub/unix.txt 0',
      "ATTRIBUTE CACHED FIELD ACCESS-METHOD SEQUENCE AFTP '' '' '' '' TEXT",
      'LINK L EXTERNAL hello INTERNET-D 127.0.0.1(7070) ASCII /hello.txt 0',
      'ATTRIBUTE CACHED FIELD ACCESS-METHOD GOPHER INTERNET-D 127.0.0.1(7070) ASCII /hello.txt 0',
      "LINK L EXTERNAL 'odd name' INTERNET-D fs.example ASCII /auto/x 0",
      "ATTRIBUTE CACHED FIELD ACCESS-METHOD NFS INTERNET-D fs.example ASCII pub/x '/auto/gum'",
      'LINK L SYMBOLIC sym VIRTUAL-SYSTEM ISI.EDU ASCII /usr/foo 0',
      'LINK NULL NULL secret NULL NULL NULL NULL NULL',
      `LINK L OBJECT v2 INTERNET-D ${at(port())} ASCII /pros/unix 2`,
      `LINK U DIRECTORY more INTERNET-D ${at(port())} ASCII /pros/union 0`,
      `LINK U DIRECTORY filtered INTERNET-D ${at(port())} ASCII /pros/union 0`,
      'ATTRIBUTE LINK FIELD FILTER DIRECTORY CLIENT POST PREDEFINED hide-dotfiles',
    ],
    '/pros/union': () => [
      `LINK L FILE extra INTERNET-D ${at(port())} ASCII /pros/extra 0`,
      // the directory has a link named "unix": this one is hidden (Prospero v5 A.2.2)
      `LINK L FILE unix INTERNET-D ${at(port())} ASCII /pros/other-unix 0`,
      `LINK U DIRECTORY back INTERNET-D ${at(port())} ASCII /pros/dir 0`,
    ],
    '/pros/sub': () => [`LINK L FILE unix INTERNET-D ${at(port())} ASCII /pros/unix 0`],
    '/pros/moved': () => [`FORWARDED INTERNET-D ${at(port())} ASCII /pros/sub 0`],
    '/pros/empty-dir': () => [],
    // 10,001 links in 400 kB: past the client's bound on links
    '/pros/huge': () =>
      Array.from({ length: 10_001 }, (_, i) => `LINK L FILE f${i} INTERNET-D ${at(port())} ASCII /f${i} 0`),
    // 2 MB: past the client's bound on a reply
    '/pros/huger': () =>
      Array.from(
        { length: 20_000 },
        (_, i) => `LINK L FILE ${'n'.repeat(60)}${i} INTERNET-D ${at(port())} ASCII /${'h'.repeat(30)}${i} 0`,
      ),
  };
}

/** The objects of the tree (GET-OBJECT-INFO): files whose access methods are the real servers' files. */
export const TREE_OBJECTS: Record<string, string[]> = {
  '/pros/unix': ["ATTRIBUTE OBJECT FIELD ACCESS-METHOD AFTP INTERNET-D 127.0.0.1(2121) ASCII '/pub/unix.txt' TEXT"],
  '/pros/extra': ["ATTRIBUTE OBJECT FIELD ACCESS-METHOD GOPHER INTERNET-D 127.0.0.1(7070) ASCII '/hello.txt' 0"],
};
