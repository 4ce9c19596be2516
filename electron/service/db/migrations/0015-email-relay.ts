export default ``;
