/** The members API's params live in the contract (namespaces.members.list and .add are called over the bus too). */
export * from "@collab/namespaces-contract";
